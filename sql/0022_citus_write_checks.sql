-- The writers' checks of sql/0017 in forms Citus runs: the tombstone check as one look-up per
-- (app, day) pair, and the app check under an advisory lock of the app instead of a row lock.
--
-- 1. check_days_unforgotten: Citus refuses a correlated subquery against a distributed table
--    (`forgotten_events`) under a set returning function ("correlated subqueries are not
--    supported when the FROM clause contains a set returning function"), so on a distributed
--    schema every write on the open-day path failed. Each look-up here names its app and day, so
--    Citus routes it to the app's shard; on one node it is the same index probe per pair as
--    before. Same arguments, same result, same SQLSTATE (MR003).
-- 2. check_apps_live: Citus serializes row locks on a reference table (`apps ... FOR KEY SHARE`)
--    with a lock on the table's shard that every write into a table referencing it (the events'
--    COPY) takes in a conflicting mode, so concurrent writers deadlocked (40P01). The writers now
--    take a shared advisory lock per app (in app order) and then read the apps without a row
--    lock; `apps delete` takes the same lock exclusively (lock_app_for_delete) after locking the
--    app's row. A write that holds the lock first commits before the delete reads and deletes its
--    events; one that comes after waits, then finds no app (MR002), as before. The function is
--    volatile, so its read after the lock sees a delete that committed while it waited. Advisory
--    locks live on the node that takes them: on Citus every writer and `apps delete` run their
--    statements through the coordinator (as for lock_event_days, sql/0015). The key includes the
--    schema, so apps of other schemas in the same database never wait for each other.

CREATE OR REPLACE FUNCTION check_days_unforgotten(apps integer[], days date[]) RETURNS boolean
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    FOR i IN 1 .. coalesce(array_length(apps, 1), 0) LOOP
        IF EXISTS (SELECT 1 FROM forgotten_events f WHERE f.app_id = apps[i] AND f.day = days[i]) THEN
            RAISE EXCEPTION 'a day of this write holds forgotten events: write it through the staged path'
                USING ERRCODE = 'MR003';
        END IF;
    END LOOP;
    RETURN true;
END $$;

-- The advisory lock key of one app in this schema.
CREATE FUNCTION app_lock_key(app integer) RETURNS bigint
LANGUAGE sql STABLE
AS $$
    SELECT hashtextextended('menurank.apps:' || current_schema() || ':' || app::text, 0)
$$;

-- Taken by `apps delete` in its transaction: waits for the writes that hold the app's lock, and
-- holds off the later ones until the delete has committed.
CREATE FUNCTION lock_app_for_delete(app integer) RETURNS void
LANGUAGE sql
AS $$
    SELECT pg_advisory_xact_lock(app_lock_key(app))
$$;

-- True when every app of `apps` still exists, with each app's advisory lock held shared until the
-- end of the transaction; raises SQLSTATE MR002 naming a missing one otherwise.
CREATE OR REPLACE FUNCTION check_apps_live(apps integer[]) RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    wanted integer[] := ARRAY(SELECT DISTINCT a FROM unnest(apps) AS a ORDER BY a);
    found integer[];
    app integer;
BEGIN
    FOREACH app IN ARRAY wanted LOOP
        PERFORM pg_advisory_xact_lock_shared(app_lock_key(app));
    END LOOP;
    found := ARRAY(SELECT a.app_id FROM apps a WHERE a.app_id = ANY (wanted) ORDER BY a.app_id);
    IF found IS DISTINCT FROM wanted THEN
        RAISE EXCEPTION 'app % was deleted', (SELECT min(w) FROM unnest(wanted) AS w WHERE w <> ALL (found))
            USING ERRCODE = 'MR002';
    END IF;
    RETURN true;
END $$;

-- Privacy operations that stay done (issue 32): a forgotten person's events cannot come back through
-- a retried batch, a deleted app cannot take another event, and a day past the rollup retention is
-- never rolled up again.
--
-- 1. forgotten_events: a tombstone per event `menurank users forget` erased, kept as long as the
--    events' retention (the daemon's partition maintenance deletes the older ones). The writers
--    treat a tombstoned (app, event id, day) as already stored: a retry of a batch acknowledged
--    before the forget is answered as duplicates and stores nothing. Only the key is kept: no user,
--    no command, no time.
-- 2. check_apps_live: the last statement of every ingestion transaction locks the rows of its apps
--    FOR KEY SHARE, which `apps delete` (FOR UPDATE on the app's row, then the deletes, in one
--    transaction) conflicts with: a write that ends before the delete's lock has its events deleted
--    with the app, and one that ends after finds no app and is rolled back (SQLSTATE MR002). So
--    once the delete has committed no event of the app is acknowledged, on any daemon.
-- 3. check_days_unforgotten: in the same statement, raises SQLSTATE MR003 when any of the written
--    (app, day) pairs holds a tombstone; the writer then redoes the transaction on its staged path,
--    which leaves the tombstoned keys out one by one. Tombstones are rare, so the open-day path
--    costs one index probe per (app, day) of the transaction and nothing else.
-- 4. rollup_horizons: per app, the first day whose rollups are kept (`rollup --rollup-retention`,
--    `serve --rollup-retention`). The rollup discards queued days before it instead of recomputing
--    them, so neither a late event nor `users forget` re-creates a day the retention dropped.
--
-- Citus: both tables lead with app_id (distributed with the events); the functions bind days as
-- dates and call no volatile function in a row expression.

CREATE TABLE forgotten_events (
    app_id    integer NOT NULL,
    day       date NOT NULL,
    event_id  uuid NOT NULL,
    PRIMARY KEY (app_id, day, event_id)
);

COMMENT ON TABLE forgotten_events IS
    'keys of events erased by users forget, kept for the events'' retention, so a retried batch counts them as duplicates instead of storing them again';

CREATE TABLE rollup_horizons (
    app_id     integer NOT NULL PRIMARY KEY,
    first_kept date NOT NULL
);

COMMENT ON TABLE rollup_horizons IS
    'per app, the first day whose rollups the rollup retention keeps; the rollup never recomputes an earlier day';

-- True when every app of `apps` still exists, with its row locked FOR KEY SHARE until the end of
-- the transaction; raises SQLSTATE MR002 naming a missing one otherwise (`apps delete` committed).
CREATE FUNCTION check_apps_live(apps integer[]) RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    wanted integer[] := ARRAY(SELECT DISTINCT a FROM unnest(apps) AS a ORDER BY a);
    found integer[];
BEGIN
    found := ARRAY(SELECT app_id FROM apps WHERE app_id = ANY (wanted) ORDER BY app_id FOR KEY SHARE);
    IF found IS DISTINCT FROM wanted THEN
        RAISE EXCEPTION 'app % was deleted', (SELECT min(w) FROM unnest(wanted) AS w WHERE w <> ALL (found))
            USING ERRCODE = 'MR002';
    END IF;
    RETURN true;
END $$;

-- True when no (apps[i], days[i]) pair holds a tombstone; raises SQLSTATE MR003 otherwise.
CREATE FUNCTION check_days_unforgotten(apps integer[], days date[]) RETURNS boolean
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM unnest(apps, days) AS p(a, d)
               WHERE EXISTS (SELECT 1 FROM forgotten_events f WHERE f.app_id = p.a AND f.day = p.d)) THEN
        RAISE EXCEPTION 'a day of this write holds forgotten events: write it through the staged path'
            USING ERRCODE = 'MR003';
    END IF;
    RETURN true;
END $$;

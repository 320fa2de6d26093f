-- Closed days keep their events in event-id order with a BRIN index instead of a btree entry per
-- event (issue 13, item 3: at most 100 bytes per stored event, dedupe included, exactly-once kept
-- for the whole retention).
--
-- A day's rows alone take about 93 bytes per event, and a btree entry per event adds about 40, so
-- no layout with one index entry per event gets under 100 bytes. What dedupe needs of a day that
-- no longer receives normal traffic is only "was this (app, event id) stored?", asked rarely (a
-- client that was offline for days, a retry of an old batch). So once a day is over, maintenance
-- closes it (close_event_partition): its rows are rewritten in (app_id, event_id) order (CLUSTER),
-- a BRIN index over (app_id, event_id) summarises each range of 8 pages (about 0.1 byte per
-- event), and its unique btree is dropped. A membership check then reads
-- the BRIN index and the few pages whose range can hold the id.
--
-- Exactly-once without a unique index on closed days, and without a race with the closing:
--
-- 1. The dedupe key moves from `events` to each day: a partitioned table's primary key must exist
--    on every partition, so `events` loses it and every day gets its own unique index on
--    (app_id, event_id) (the day is the partition's own: it added nothing to the key). Same key,
--    same entry size; ensure_event_partitions (restated from sql/0010) makes it with each new day.
-- 2. A day is closed when closed_event_days holds it: the row is written in the same transaction
--    as the day's unique index is dropped (event_day_closed).
-- 3. The writers' path for open days is unchanged (binary COPY straight into `events`, the unique
--    index refusing a stored key), plus one check in the statement that ends each transaction
--    (after the COPY): check_event_days_open raises SQLSTATE MR001 when a day written is closed,
--    and the writer rolls back and takes the path for closed days. This is race-free without any
--    lock on the hot path: dropping the index needs an ACCESS EXCLUSIVE lock on the partition,
--    which waits for every transaction that has written into it. So either the COPY inserted
--    while the unique index existed, and the index stays until that transaction ends; or the COPY
--    came after the closing committed, and the check, whose snapshot is taken after the COPY, sees
--    the day in closed_event_days.
-- 4. Writes into closed days (lock_event_days) take a transaction-level advisory lock per closed
--    day, in day order (no deadlock), before anything else; close_event_partition takes the same
--    lock. Under it the writer looks up which of its ids the day already holds (a statement whose
--    snapshot follows the lock, so it sees every earlier writer of that day and the closing),
--    leaves those out and inserts the rest. No other transaction can insert into a closed day
--    meanwhile: a writer on the open-day path rolls back (3), one on the closed path waits for
--    the lock.
--
-- Citus: the advisory locks are the coordinator's, which every writer goes through; CLUSTER,
-- CREATE INDEX and DROP INDEX on a distributed partition are carried to its shards by Citus.
--
-- Upgrading: dropping the key of `events` drops it on every day, and each kept day's unique index
-- is built again here (as long as a REINDEX of each day), under an exclusive lock on `events`; run
-- `menurank migrate` when traffic is low. The daemon's maintenance then closes the days before
-- yesterday, one transaction each.

ALTER TABLE events DROP CONSTRAINT events_pkey;

DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT c.relname
        FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass
        ORDER BY c.relname
    LOOP
        EXECUTE format('CREATE UNIQUE INDEX %I ON %I (app_id, event_id)', r.relname || '_key', r.relname);
    END LOOP;
END $$;

COMMENT ON TABLE events IS
    'selections and dismissals, one partition per UTC day; an open day dedupes with its unique index on (app_id, event_id), a closed day (close_event_partition) is kept in that order with a BRIN index and dedupes under lock_event_days';

-- Restated from sql/0010: each new day gets its unique index on (app_id, event_id) before it is
-- attached (LIKE events copies no key now).
CREATE OR REPLACE FUNCTION ensure_event_partitions(from_day date, to_day date) RETURNS integer
LANGUAGE plpgsql
SET lock_timeout = '1s'
AS $$
DECLARE
    d date := from_day;
    created integer := 0;
    part text;
BEGIN
    WHILE d <= to_day LOOP
        part := 'events_' || to_char(d, 'YYYYMMDD');
        IF to_regclass(quote_ident(current_schema()) || '.' || part) IS NULL THEN
            EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING ALL, CONSTRAINT %I CHECK (day >= %L AND day < %L))',
                           part, part || '_day', d, d + 1);
            EXECUTE format('CREATE UNIQUE INDEX %I ON %I (app_id, event_id)', part || '_key', part);
            EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                           part, d, d + 1);
            created := created + 1;
        END IF;
        d := d + 1;
    END LOOP;
    RETURN created;
END $$;

-- The closed days: a row is added in the same transaction as the day's unique index is dropped,
-- and removed with the day's partition (drop_event_partitions_before). Global, small (one row a
-- day) and read by every ingestion transaction on the coordinator: on Citus it stays there, like
-- schema_migrations (DistributionPlan.localTables).
CREATE TABLE closed_event_days (
    day       date PRIMARY KEY,
    closed_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE closed_event_days IS
    'days whose events partition is closed (close_event_partition): kept in (app_id, event_id) order with a BRIN index, no unique index; written only under lock_event_days';

-- Whether the day is closed, with the statement's snapshot.
CREATE FUNCTION event_day_closed(d date) RETURNS boolean
LANGUAGE sql STABLE
AS $$
    SELECT EXISTS (SELECT 1 FROM closed_event_days c WHERE c.day = d)
$$;

-- True when none of `days` is closed; raises SQLSTATE MR001 naming the first closed one otherwise.
-- The writers call it in the last statement of a transaction that wrote those days on the
-- open-day path.
CREATE FUNCTION check_event_days_open(days date[]) RETURNS boolean
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    closed date;
BEGIN
    SELECT min(c.day) INTO closed FROM closed_event_days c WHERE c.day = ANY (days);
    IF closed IS NOT NULL THEN
        RAISE EXCEPTION 'the events of % are closed: write them through lock_event_days', closed
            USING ERRCODE = 'MR001';
    END IF;
    RETURN true;
END $$;

-- The advisory lock of one day's closed partition in this schema.
CREATE FUNCTION event_day_lock_key(d date) RETURNS bigint
LANGUAGE sql STABLE
AS $$
    SELECT hashtextextended('menurank.events:' || current_schema() || ':' || d::text, 0)
$$;

-- Takes the transaction-level advisory lock of each closed day among `days`, in day order, and
-- returns those days. Call it first in a transaction that writes into closed days: a statement
-- after it sees every earlier writer of those days.
CREATE FUNCTION lock_event_days(days date[]) RETURNS SETOF date
LANGUAGE plpgsql
AS $$
DECLARE
    d date;
BEGIN
    FOR d IN SELECT DISTINCT x FROM unnest(days) AS x WHERE event_day_closed(x) ORDER BY x LOOP
        PERFORM pg_advisory_xact_lock(event_day_lock_key(d));
        RETURN NEXT d;
    END LOOP;
END $$;

-- Closes a day: rewrites its partition in (app_id, event_id) order, indexes it with BRIN and drops
-- its unique index, in one transaction under the day's advisory lock. Returns false when the day
-- has no partition or is closed already. Holds an ACCESS EXCLUSIVE lock on that day's partition
-- (not on `events`) while it rewrites it; gives up after 2 s waiting for it (the maintainer tries
-- again later).
CREATE FUNCTION close_event_partition(d date) RETURNS boolean
LANGUAGE plpgsql
SET lock_timeout = '2s'
AS $$
DECLARE
    part text := 'events_' || to_char(d, 'YYYYMMDD');
    rel regclass := to_regclass(quote_ident(current_schema()) || '.' || part);
    key regclass;
BEGIN
    IF rel IS NULL THEN
        RETURN false;
    END IF;
    PERFORM pg_advisory_xact_lock(event_day_lock_key(d));
    IF event_day_closed(d) THEN
        RETURN false;
    END IF;
    SELECT i.indexrelid::regclass INTO STRICT key FROM pg_index i WHERE i.indrelid = rel AND i.indisunique;
    EXECUTE format('CLUSTER %s USING %s', rel, key);
    EXECUTE format('CREATE INDEX %I ON %s USING brin (app_id, event_id) WITH (pages_per_range = 8, autosummarize = on)',
                   part || '_brin', rel);
    EXECUTE format('DROP INDEX %s', key);
    INSERT INTO closed_event_days (day) VALUES (d);
    EXECUTE format('ANALYZE %s', rel);
    RETURN true;
END $$;

-- Restated from sql/0010: the closed-day rows of the dropped days go with them.
CREATE OR REPLACE FUNCTION drop_event_partitions_before(before_day date) RETURNS integer
LANGUAGE plpgsql
SET lock_timeout = '200ms'
AS $$
DECLARE
    r record;
    dropped integer := 0;
BEGIN
    FOR r IN
        SELECT c.relname
        FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.oid = 'events'::regclass
          AND c.relname ~ '^events_[0-9]{8}$'
          AND to_date(substr(c.relname, 8), 'YYYYMMDD') < before_day
    LOOP
        EXECUTE format('DROP TABLE %I', r.relname);
        dropped := dropped + 1;
    END LOOP;
    DELETE FROM rollup_queue WHERE day < before_day;
    DELETE FROM closed_event_days WHERE day < before_day;
    RETURN dropped;
END $$;

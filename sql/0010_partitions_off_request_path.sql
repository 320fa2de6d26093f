-- Partitions are made without stalling writers behind readers, and a writer whose COMMIT reply was
-- lost can tell its own commit from a real duplicate.
--
-- 1. ensure_event_partitions (restated from sql/0001): `CREATE TABLE … PARTITION OF events` takes an
--    ACCESS EXCLUSIVE lock on `events`, so it waits for every reader (a pg_dump, a long report)
--    and every writer queues behind it. Instead each day's table is made on its own (LIKE events,
--    with a CHECK constraint matching its range so the attach need not scan it) and attached with
--    `ALTER TABLE events ATTACH PARTITION`, which takes only SHARE UPDATE EXCLUSIVE on `events`: it
--    runs beside readers and writers. A lock timeout makes it give up rather than wait on other
--    DDL; the daemon's maintainer retries, off the request path.
-- 2. ingest_commits: the writer inserts a fresh token in the same transaction as the events. When
--    the connection is lost during COMMIT, the writer asks on a new connection whether its token
--    exists: if so the transaction committed and the counts it computed are the answer; if not,
--    nothing was stored and the batch is written again. Tokens are deleted after a day.
-- 3. events.day, as sql/0008 said, but without its exception: always the UTC day of the client's own
--    event time; an event whose own day lies outside the retention window is refused up front.
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
            EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                           part, d, d + 1);
            created := created + 1;
        END IF;
        d := d + 1;
    END LOOP;
    RETURN created;
END $$;

CREATE TABLE ingest_commits (
    token        uuid PRIMARY KEY,
    committed_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE ingest_commits IS
    'one row per committed ingestion transaction, so a writer that lost the COMMIT reply can tell whether it committed; kept a day';
COMMENT ON COLUMN events.day IS
    'UTC day of the client''s own event time as sent (events whose own day is outside the retention window are refused); partition key, part of the dedupe key';

-- drop_event_partitions_before (restated from sql/0007 with a shorter lock timeout): DROP TABLE of
-- a partition needs an ACCESS EXCLUSIVE lock on `events`, and writers queue behind it while it
-- waits for a reader; 200 ms bounds that wait, and the maintainer retries later.
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
    RETURN dropped;
END $$;

-- Retention: dropping a day's events must not wipe that day's rollups, nor hold up ingestion.
--
-- A late event for the oldest day still kept leaves a rollup_queue row; once the day's partition is
-- dropped, a rollup of that row would find no events and replace the day's rollups with nothing.
-- So the queue rows of the dropped days go in the same transaction as the partitions: the rollups
-- of a dropped day stay as they were last computed. And DROP TABLE takes an exclusive lock on
-- `events`: with a lock timeout it gives up (and is retried at the next maintenance) instead of
-- queueing every writer behind a long-running reader.
CREATE OR REPLACE FUNCTION drop_event_partitions_before(before_day date) RETURNS integer
LANGUAGE plpgsql
SET lock_timeout = '2s'
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

-- When each app's rollups last counted its events (issue 28: figures never stale without saying
-- so). A rollup of an app (RollupStore.rollUp) writes the time it took the app's queued days, in
-- its own transaction, so once it commits every event stored before that time is counted, and
-- what arrived since is in `rollup_queue` (RollupBacklog counts it). Readers that answer from the
-- rollups (the admin API's usage and outcomes, the review page) say "figures as of the rollup at
-- T" and how many events are pending, from this row and the queue.
--
-- The time is the client's clock in UTC, bound as a value (no volatile function: the statement
-- stays valid on Citus, where the table is distributed by app_id like every app table).
CREATE TABLE rollup_times (
    app_id        integer PRIMARY KEY,
    rolled_up_at  timestamptz NOT NULL
);

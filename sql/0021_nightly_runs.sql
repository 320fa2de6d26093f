-- The night inside the daemon (issue 31; `menurank serve --nightly-at HH:MM`): one row per
-- scheduled night, so that with several daemons on one database the night runs once. A daemon
-- whose night is due takes a session advisory lock (`pg_try_advisory_lock`, held on the
-- connection that runs the night, so a daemon that dies frees it), then reads this row: a night
-- that succeeded is not run again, by it or by any other daemon; one that failed or was stopped
-- is tried again at the daemon's next tick.
--
-- `night` is the day of the schedule's time zone (`--nightly-tz`) the run is for; `outcome`
-- `running` while a daemon runs it (a row left `running` by a daemon that died is taken over by
-- the next one to hold the lock), then `succeeded`, `failed` (with `detail`: the error) or
-- `stopped` (the daemon was shut down before it filed). Global, not per app: on Citus it stays on
-- the coordinator (DistributionPlan.localTables).
CREATE TABLE nightly_runs (
    night date PRIMARY KEY,
    outcome text NOT NULL CHECK (outcome IN ('running', 'succeeded', 'failed', 'stopped')),
    runner text NOT NULL CHECK (length(runner) BETWEEN 1 AND 200),
    attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    filed integer CHECK (filed >= 0),
    detail text CHECK (length(detail) <= 2000)
);

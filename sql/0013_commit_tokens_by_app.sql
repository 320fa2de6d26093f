-- Commit tokens lead with the app id, so the table is distributed with the events on Citus.
--
-- Replaces `ingest_commits` of sql/0010 (item 2 there), whose primary key was the token alone: the
-- only table of the schema without `app_id`, so `migrate --distributed` refused it, and as a
-- reference or coordinator-only table every ingestion transaction would have spanned two nodes
-- (a two-phase commit per batch).
--
-- What it does is unchanged: the writer inserts a fresh token in the same transaction as the
-- events. When the connection is lost during COMMIT, the writer inserts the same token again on a
-- new connection: a conflict means the transaction committed (the insert waits for it while it is
-- still finishing) and the counts it computed are the answer; otherwise nothing was stored and the
-- batch is written again. Tokens are deleted after a day.
--
-- What changes: the token row carries the app id of the transaction's first (smallest) app, so
-- it sits in that app's shard group, beside the events it vouches for. A transaction of one app
-- stays on one worker. One of several apps spans several workers, which Citus commits with two-
-- phase commit: all or nothing, and the asking insert waits for a prepared transaction that holds
-- the token, so one token on one of them answers for all.
--
-- The tokens of sql/0010 are dropped with the old table: a writer only asks about its own token
-- within seconds of writing it, and a daemon older than this migration, still running between
-- `menurank migrate` and its restart, has its ingestion refused meanwhile (its apps retry; a retry
-- is idempotent), so restart the daemon right after migrating.
DROP TABLE ingest_commits;

CREATE TABLE ingest_commits (
    app_id       integer NOT NULL,
    token        uuid NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, token)
);

COMMENT ON TABLE ingest_commits IS
    'one row per committed ingestion transaction, under its first app, so a writer that lost the COMMIT reply can tell whether it committed; kept a day';

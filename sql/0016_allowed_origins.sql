-- Web apps: the browser origins allowed to call the API with an app's keys (issue 30).
--
-- A page on another origin can only call POST /v1/events and GET /v1/menus when the daemon
-- answers its CORS preflight and marks the responses with Access-Control-Allow-Origin; the daemon
-- does so only for the origins listed here (`menurank apps set APP --allowed-origin URL`), and
-- refuses (403 origin_not_allowed) a request whose Origin is on none of its app's list. Empty by
-- default: no browser on another origin may call. Each entry is an origin as a browser sends it,
-- normalised by menurank (`https://mail.example.com`, `http://127.0.0.2:8080`: scheme, lower-case
-- host, a port only when not the scheme's default, no path), at most 32 per app. The daemon reads
-- the list with the key lookup it already makes (one query per key per cache period), so the
-- ingest path costs no extra query.
--
-- Citus: the column and its check are two statements (the check keeps the name PostgreSQL gives a
-- column's check): Citus refuses an ADD COLUMN that carries a constraint on a distributed schema.
-- This file first held them as one; a database that applied that text has the same schema, and
-- `Migrator.earlierChecksums` accepts it.
ALTER TABLE apps ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}';
ALTER TABLE apps ADD CONSTRAINT apps_allowed_origins_check CHECK (cardinality(allowed_origins) <= 32);

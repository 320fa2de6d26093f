// The Postgres module.

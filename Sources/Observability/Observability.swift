// The Observability module.

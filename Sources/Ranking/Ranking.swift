// The Ranking module.

// The Hashing module.

// The Storage module.

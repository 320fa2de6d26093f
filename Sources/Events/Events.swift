// The Events module.

// The Reports module.

// The ArgumentParsing module.

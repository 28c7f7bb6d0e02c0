"""One module per LSP feature; each feature is a class built over the open documents."""

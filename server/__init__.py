"""The OptiML language server: LSP (pygls) mapped onto optiml_engine, one small module per feature."""

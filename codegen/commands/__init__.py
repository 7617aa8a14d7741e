"""One module per ``tasklayer`` subcommand; ``codegen.cli`` parses and dispatches."""

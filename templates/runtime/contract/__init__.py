"""What every layer of the runtime shares and nothing above: states, specs, errors, the diff,
redaction, names, ownership marks, the context (docs/architecture.md).
"""

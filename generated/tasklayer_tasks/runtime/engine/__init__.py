"""The one lifecycle every face drives: locate, ownership, plan, create-only check, apply,
verify (docs/architecture.md).
"""

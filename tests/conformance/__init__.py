"""The conformance sweep: every generated resource through apply, re-apply, a change of each
mutable field, a refused create-only change, delete and gone (``python -m
tests.conformance.sweep``)."""

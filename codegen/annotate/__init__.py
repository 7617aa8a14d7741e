"""Annotate: a provider's generic rules, run in the order its ``run`` module lists them.

``aws.run.annotate_model`` reads a botocore model, ``gcp.run.annotate_document`` a discovery
document; each returns the draft the rules filled in (``codegen.draft``). Overlays and freezing
are later stages, put together in :mod:`codegen.pipeline`.
"""

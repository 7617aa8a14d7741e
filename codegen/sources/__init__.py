"""Sources: what every provider's loader shares.

``manifest`` records what is pinned and its sha256; ``validate`` decodes JSON strictly and
turns malformed botocore models into errors with a file and JSON pointer. Each provider's own
loader is ``codegen/providers/<provider>/source.py``.
"""

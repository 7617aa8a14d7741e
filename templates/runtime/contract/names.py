"""Names that must be unique in the account, derived from the whole cluster name as kOps does.

Some kinds are found by a name the account holds once (an ELBv2 load balancer or target group),
and the API caps its length (32 characters). A name made from part of the cluster name
(``api-demo`` for ``demo.example.com``) collides with another cluster's (``demo.example.net``):
the second cluster finds a resource it does not own and is refused. kOps' ``GetResourceName32``
(``pkg/resources/aws``; ``pkg/truncate``) keeps the whole cluster name: the prefix and the name
with dots made dashes, cut to fit, always followed by a short hash of the untruncated text, so two
cluster names that differ anywhere give different names, and the same one the same name on every
run::

    >>> resource_name("mycluster.example.com", "bastion")
    'bastion-mycluster-example-o8elkm'
    >>> resource_name("this.is.a.very.long.cluster.example.com", "api")
    'api-this-is-a-very-long-c-q4ukp4'
"""

from __future__ import annotations

import base64

__all__ = ["hash_name", "resource_name", "truncate_name"]

HASH_LENGTH = 6  # kOps' default: 30 bits of an FNV-1a hash


def _fnv1a_32(data: bytes) -> bytes:
    """FNV-1a, 32 bits, big-endian: Go's ``hash/fnv.New32a`` (the standard library has none)."""
    value = 0x811C9DC5
    for byte in data:
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value.to_bytes(4, "big")


def hash_name(text: str, length: int = HASH_LENGTH) -> str:
    """kOps' ``truncate.HashString``: FNV-1a of the text in lower-case base32hex, ``length``
    characters at most."""
    if length <= 0:
        raise ValueError("a hash of a name needs a positive length")
    encoded = base64.b32hexencode(_fnv1a_32(text.encode())).decode().lower()
    return encoded[:length]


def truncate_name(
    text: str, max_length: int, always_add_hash: bool = False, hash_length: int = HASH_LENGTH
) -> str:
    """kOps' ``truncate.TruncateString``: the text when it fits (and no hash is asked for), else
    as much of it as leaves room for ``-<hash of the whole text>``; never longer than
    ``max_length``."""
    if max_length <= hash_length + 1:
        raise ValueError(f"{max_length} characters leave no room for a name and its hash")
    if not always_add_hash and len(text) <= max_length:
        return text
    suffix = hash_name(text, hash_length)
    return f"{text[: max_length - len(suffix) - 1]}-{suffix}"


def resource_name(cluster: str, prefix: str, max_length: int = 32) -> str:
    """The account-unique name of the cluster's ``prefix`` resource (kOps' ``GetResourceName32``:
    ``api`` is the API's load balancer, ``tcp`` its target group): made of the whole cluster
    name, with a hash even when it fits, so no one takes the name for the bare cluster name."""
    return truncate_name(f"{prefix}-{cluster.replace('.', '-')}", max_length, always_add_hash=True)

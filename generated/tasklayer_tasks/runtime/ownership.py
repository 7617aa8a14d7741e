"""Who owns a resource: the tags (AWS) or labels (GCP) written in every create call, and the
one that find looks for. A found resource that does not carry it is never adopted, changed or
deleted.

The keys are the ones the tools this layer serves already use, so a cluster made by kOps or
cluster-api is recognised as theirs: kOps' ``KubernetesCluster`` and
``kubernetes.io/cluster/<cluster>=owned`` (AWS) and ``k8s-io-cluster-name`` (GCE); CAPA's
``sigs.k8s.io/cluster-api-provider-aws/cluster/<cluster>=owned``; CAPG's
``capg-cluster-<cluster>=owned``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .spec import ResourceSpec

OWNED = "owned"
# a per-attempt marker written by creates that carry no idempotency token: after a reply was
# lost, the runtime looks for it before it ever creates again
ATTEMPT_TAG = "tasklayer.dev/create-attempt"


@dataclass(frozen=True)
class Owner:
    """An owner's marks. ``key=value`` is what proves ownership; ``marks`` are all written."""

    description: str  # "cluster demo": how errors name the owner
    key: str
    value: str
    marks: Mapping[str, str] = field(default_factory=dict)

    def owns(self, tags: Any) -> bool:
        return isinstance(tags, Mapping) and tags.get(self.key) == self.value

    @classmethod
    def kops_aws(cls, cluster: str) -> Owner:
        key = f"kubernetes.io/cluster/{cluster}"
        return cls(f"cluster {cluster}", key, OWNED, {"KubernetesCluster": cluster, key: OWNED})

    @classmethod
    def capa(cls, cluster: str) -> Owner:
        key = f"sigs.k8s.io/cluster-api-provider-aws/cluster/{cluster}"
        return cls(f"cluster {cluster}", key, OWNED, {key: OWNED})

    @classmethod
    def kops_gce(cls, cluster: str) -> Owner:
        value = gce_label_value(cluster)
        return cls(
            f"cluster {cluster}", "k8s-io-cluster-name", value, {"k8s-io-cluster-name": value}
        )

    @classmethod
    def capg(cls, cluster: str) -> Owner:
        key = f"capg-cluster-{gce_label_value(cluster)}"[:63]
        return cls(f"cluster {cluster}", key, OWNED, {key: OWNED})


def gce_label_value(text: str) -> str:
    """A GCE label value: lower case letters, digits, ``-`` and ``_``, at most 63 characters
    (kOps' SafeClusterName turns dots into dashes the same way)."""
    return re.sub(r"[^a-z0-9_-]", "-", text.lower())[:63]


def needs_marker(spec: ResourceSpec) -> bool:
    """A create that carries neither an idempotency token nor a name the cloud keeps unique
    (only a Name tag) writes the attempt's marker tag, to be found by after a lost answer."""
    create, tags = spec.create, spec.tags
    return (
        create is not None
        and not create.idempotency_token
        and tags is not None
        and tags.in_create
        and "tag:Name" in spec.natural
    )

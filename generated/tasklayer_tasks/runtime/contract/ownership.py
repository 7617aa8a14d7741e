"""Who owns a resource: the tags (AWS) or labels (GCP) written in every create call, and the
one that find looks for. A found resource that does not carry it is never adopted, changed or
deleted.

The keys are the ones the tools this layer serves already use, so a cluster made by kOps or
cluster-api is recognised as theirs: kOps' ``KubernetesCluster`` and
``kubernetes.io/cluster/<cluster>=owned`` (AWS) and ``k8s-io-cluster-name`` (GCE); CAPA's
``sigs.k8s.io/cluster-api-provider-aws/cluster/<cluster>=owned``; CAPG's
``capg-cluster-<cluster>=owned``.

An owner narrowed to one consumer within it (:meth:`Owner.within`: a cluster's Service) also
writes a marker naming the keys that narrow it (:data:`NARROWED_TAG`). The cluster's own,
un-narrowed owner does not own what carries that marker, nor does an owner narrowed by other
keys: a cluster-wide prune never takes a Service's load balancer for its orphan, though both
carry the cluster's tag. The marker is data, not a list of known keys: the other tags a real
account carries (``Name``, ``KubernetesCluster``, a user's cost tags) narrow nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .spec import ResourceSpec

OWNED = "owned"
# a per-attempt marker written by creates that carry no idempotency token: after a reply was
# lost, the runtime looks for it before it ever creates again
ATTEMPT_TAG = "tasklayer.dev/create-attempt"
# written by a narrowed owner's creates (Owner.within): the keys that narrow it, space-separated
# (ELBv2 and Route 53 tag values take no commas)
NARROWED_TAG = "tasklayer.dev/owner-narrowed-by"
NARROWED_LABEL = "tasklayer-owner-narrowed-by"  # the same, as a GCP label key
# an owner record (ResourceSpec.owner_record) that is plain text, not a JSON object of marks:
# the text is this one mark's value (a node route's description, ``k8s-node-route``)
RECORD_TEXT = "text"
NODE_ROUTE = "k8s-node-route"  # cloud-provider-gcp's k8sNodeRouteTag, its routes' description


@dataclass(frozen=True)
class Owner:
    """An owner's marks. ``key=value`` is what proves ownership; ``marks`` are all written."""

    description: str
    """How errors name the owner (``cluster demo``)."""
    key: str
    """The tag or label key whose value proves ownership."""
    value: str
    """The value ``key`` must have on what this owner owns."""
    marks: Mapping[str, str] = field(default_factory=dict)
    """Every tag or label written on what this owner creates (``key=value`` among them)."""
    also: Mapping[str, str] = field(default_factory=dict)
    """Marks ownership needs besides ``key=value`` (written too, as ``marks``): what one
    consumer within the owner holds, so that another within it is not this one's (a cluster's
    Service and its load balancer: ``kubernetes.io/service-name``). Empty: the whole owner."""
    narrowed_by: str = NARROWED_TAG
    """The marker key a narrowed owner writes naming the keys of ``also``
    (:data:`NARROWED_LABEL` where marks are GCP labels)."""
    records: bool = False
    """On a kind whose spec names an owner record field (``ResourceSpec.owner_record``), this
    owner's marks are written there at create, as a JSON object, and read from there instead
    of from labels: the Kubernetes cloud-provider's ``{"kubernetes.io/service-name": ...}`` in
    a target pool's description. False: such a kind is owned by its labels, or by its name
    (kOps' firewalls)."""

    def owns(self, tags: Any) -> bool:
        """Whether ``tags`` (a resource's tags or labels) carry this owner's mark (and every
        mark of ``also``), and no marker of a narrower owner this one is not: what a narrowed
        owner made says which keys narrow it (``narrowed_by``), and only an owner narrowed by
        exactly those owns it. No marker (made before markers, or by another tool): judged by
        the marks alone."""
        return (
            isinstance(tags, Mapping)
            and tags.get(self.key) == self.value
            and all(tags.get(k) == v for k, v in self.also.items())
            and tags.get(self.narrowed_by) in (None, self._narrowing())
        )

    def _narrowing(self) -> str | None:
        """The marker's value: the keys of ``also``; None for an owner not narrowed."""
        return narrowing(self.also, self.narrowed_by) if self.also else None

    def within(self, marks: Mapping[str, str]) -> Owner:
        """This owner narrowed to what also carries ``marks``: listings still ask the cloud
        for ``key=value`` (one listing serves every narrowed owner of a pass), and what they
        return is judged by :meth:`owns`. Itself when ``marks`` is empty."""
        if not marks:
            return self
        shown = ", ".join(f"{k}={v}" for k, v in sorted(marks.items()))
        also = {**self.also, **marks}
        marker = {self.narrowed_by: narrowing(also, self.narrowed_by)}
        return replace(
            self,
            description=f"{self.description} ({shown})",
            marks={**self.marks, **marks, **marker},
            also=also,
        )

    def token(self, attempt: str) -> str:
        """A create token that names its owner and its attempt, for creates whose token the
        reads return (a hosted zone's CallerReference): the resource is recognisably ours from
        the moment it exists, before a separate tag call marks it (or after a crash between)."""
        return f"{self._token_prefix()}{attempt}"

    def made(self, token: Any) -> bool:
        """The token (as read back) is one :meth:`token` gave this owner."""
        return isinstance(token, str) and token.startswith(self._token_prefix())

    def _token_prefix(self) -> str:
        # a digest, not the owner's name: tokens are short (CallerReference: 128 characters)
        narrowed = "".join(f"&{k}={v}" for k, v in sorted(self.also.items()))
        digest = hashlib.sha256(f"{self.key}={self.value}{narrowed}".encode()).hexdigest()[:20]
        return f"tl{digest}-"

    @classmethod
    def kops_aws(cls, cluster: str) -> Owner:
        """kOps' AWS convention: ``KubernetesCluster=<cluster>`` and
        ``kubernetes.io/cluster/<cluster>=owned``."""
        key = f"kubernetes.io/cluster/{cluster}"
        return cls(f"cluster {cluster}", key, OWNED, {"KubernetesCluster": cluster, key: OWNED})

    @classmethod
    def capa(cls, cluster: str) -> Owner:
        """cluster-api-provider-aws' convention:
        ``sigs.k8s.io/cluster-api-provider-aws/cluster/<cluster>=owned``."""
        key = f"sigs.k8s.io/cluster-api-provider-aws/cluster/{cluster}"
        return cls(f"cluster {cluster}", key, OWNED, {key: OWNED})

    @classmethod
    def kops_gce(cls, cluster: str) -> Owner:
        """kOps' GCE convention: the label ``k8s-io-cluster-name`` set to the cluster's name as a
        label value."""
        value = gce_label_value(cluster)
        marks = {"k8s-io-cluster-name": value}
        return cls(
            f"cluster {cluster}", "k8s-io-cluster-name", value, marks, narrowed_by=NARROWED_LABEL
        )

    @classmethod
    def cloud_provider_gce(cls, cluster: str) -> Owner:
        """cloud-provider-gcp's convention for a load balancer's parts, which carry no labels:
        JSON in their description (``makeServiceDescription``), here with the cluster's id
        beside the Service (``kubernetes.io/cluster-id``, as its health-check firewall has it),
        so one cluster's prune or delete never takes another's of the same Service name."""
        key = "kubernetes.io/cluster-id"
        return cls(f"cluster {cluster}", key, cluster, {key: cluster}, records=True)

    @classmethod
    def node_routes(cls, cluster: str) -> Owner:
        """cloud-provider-gcp's routes: described ``k8s-node-route``, named after the cluster
        (its ``ListRoutes`` filter: the name's prefix, the network, the description)."""
        marks = {RECORD_TEXT: NODE_ROUTE}
        return cls(f"cluster {cluster}'s node routes", RECORD_TEXT, NODE_ROUTE, marks, records=True)

    @classmethod
    def capg(cls, cluster: str) -> Owner:
        """cluster-api-provider-gcp's convention: the label ``capg-cluster-<cluster>=owned``."""
        key = f"capg-cluster-{gce_label_value(cluster)}"[:63]
        return cls(f"cluster {cluster}", key, OWNED, {key: OWNED}, narrowed_by=NARROWED_LABEL)


def narrowing(also: Mapping[str, str], narrowed_by: str) -> str:
    """The value of a narrowed owner's marker: the keys that narrow it, space-separated (a GCP
    label value, which takes lower case letters, digits, ``-`` and ``_`` only, as one)."""
    keys = " ".join(sorted(also))
    return keys if narrowed_by == NARROWED_TAG else gce_label_value(keys)


def gce_label_value(text: str) -> str:
    """A GCE label value: lower case letters, digits, ``-`` and ``_``, at most 63 characters
    (kOps' SafeClusterName turns dots into dashes the same way)."""
    return re.sub(r"[^a-z0-9_-]", "-", text.lower())[:63]


def record_field(spec: ResourceSpec, owner: Owner) -> str | None:
    """The field ``owner``'s marks live in on this kind, when not its tags or labels: the
    spec's owner record, for an owner that records itself there."""
    return spec.owner_record if owner.records else None


def read_record(text: Any) -> dict[str, str]:
    """The marks an owner record holds: a JSON object's members, or a plain text as the one mark
    :data:`RECORD_TEXT`; nothing for anything else (a user's description is no one's record)."""
    if not isinstance(text, str) or not text:
        return {}
    if not text.startswith("{"):
        return {RECORD_TEXT: text}
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def written_record(marks: Mapping[str, str]) -> str:
    """What an owner record holds for ``marks``: the text itself for a plain-text mark, else
    a JSON object, compact and sorted, as cloud-provider-gcp writes its descriptions."""
    if set(marks) == {RECORD_TEXT}:
        return marks[RECORD_TEXT]
    return json.dumps(dict(marks), separators=(",", ":"), sort_keys=True)


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


def made_by_token(spec: ResourceSpec, owner: Owner, state: Mapping[str, Any]) -> bool:
    """The resource carries a create token of ``owner``'s (:meth:`Owner.token`), read back."""
    create = spec.create
    return (
        create is not None
        and bool(create.token_read)
        and owner.made(state.get(create.token_read or ""))
    )


def marks_missing(spec: ResourceSpec, owner: Owner, state: Mapping[str, Any]) -> bool:
    """Ours by its create token alone: made, and the owner's tags not on it yet."""
    tags = spec.tags
    return (
        tags is not None
        and not owner.owns(state.get(tags.field))
        and made_by_token(spec, owner, state)
    )


def create_token(spec: ResourceSpec, owner: Owner, attempt: str) -> str:
    """The token a create sends: the attempt's own, naming its owner where reads return it."""
    create = spec.create
    return owner.token(attempt) if create is not None and create.token_read else attempt

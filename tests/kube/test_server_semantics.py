"""What the real API server decides about the generated CRDs beyond one object's round trip:
required members, how lists merge under server-side apply, the status subresource's own
validation."""

from __future__ import annotations

import json
from typing import Any

import kubernetes
import pytest

from tests.kube.conftest import CRDS, NAMESPACE, load_crd
from tests.kube.test_crds_on_apiserver import VERSION, Kind, refusal
from tests.test_crd_immutability import sample

APPLY = "application/apply-patch+yaml"  # JSON is YAML: the body goes as the client serialises it


def _kind(client: kubernetes.client.ApiClient, plural: str, group: str) -> Kind:
    crd = next(c for c in map(load_crd, CRDS) if c["metadata"]["name"] == f"{plural}.{group}")
    return Kind(client, crd)


@pytest.fixture
def vpcs(installed_crds: dict[str, Any], kube_client: kubernetes.client.ApiClient) -> Kind:
    return _kind(kube_client, "vpcs", "ec2.aws.tasklayer.dev")


def _apply(kind: Kind, name: str, spec: dict[str, Any], manager: str) -> dict[str, Any]:
    """Server-side apply, forcing ownership (the client does not decode an apply's answer)."""
    args = (kind.group, VERSION, NAMESPACE, kind.plural, name)
    answer = kind.api.patch_namespaced_custom_object(
        *args,
        kind.body(name, spec),
        field_manager=manager,
        force=True,
        _content_type=APPLY,
        _preload_content=False,
    )
    return dict(json.loads(answer.data))


def _lists(node: Any) -> list[dict[str, Any]]:
    if not isinstance(node, dict):
        return []
    found = [node] if node.get("type") == "array" else []
    for child in [
        *(node.get("properties") or {}).values(),
        node.get("items"),
        node.get("additionalProperties"),
    ]:
        found += _lists(child)
    return found


def test_a_condition_without_its_required_members_is_refused(vpcs: Kind) -> None:
    """``type`` and ``status`` are the only required members the CRDs declare: the spec has
    none, as a CR that adopts (``shared``) or is still being written need not name them; what
    a create needs is the reconciler's judgement (tests/behaviour/test_required_fields.py)."""
    assert vpcs.create("empty-spec", {})["spec"] == {}
    current = vpcs.create("condition", {"cidrBlock": "10.0.0.0/16"})
    causes = refusal(
        vpcs.replace_status, current, {"conditions": [{"type": "Ready"}]}, current["spec"]
    )
    assert [(c["reason"], c["field"]) for c in causes or []] == [
        ("FieldValueRequired", "status.conditions[0].status")
    ]


def test_every_list_is_atomic_and_server_side_apply_replaces_it_whole(
    installed_crds: dict[str, Any], kube_client: kubernetes.client.ApiClient
) -> None:
    """No generated CRD declares ``x-kubernetes-list-type``, so the server treats every list as
    atomic: a second field manager's apply replaces the list whole (it does not merge items),
    and duplicates are kept. A kOps target applying CRs (issue 24 item 5) owns each list whole."""
    declared = [
        path.name
        for path in CRDS
        for node in _lists(load_crd(path)["spec"]["versions"][0]["schema"])
        if "x-kubernetes-list-type" in node
    ]
    assert declared == []
    path = next(
        p for p in CRDS if any(v.get("type") == "array" for v in Kind.spec_of(load_crd(p)).values())
    )
    kind = Kind(kube_client, load_crd(path))
    key = next(k for k, v in kind.spec_schema.items() if v.get("type") == "array")
    one, two = (sample(kind.spec_schema[key]["items"], variant) for variant in (0, 1))
    got = _apply(kind, "applied", {key: [one, one]}, manager="one")
    assert got["spec"][key] == [one, one], "duplicates are kept"
    got = _apply(kind, "applied", {key: [two]}, manager="two")
    assert got["spec"][key] == [two], "the second manager's list replaced the first's whole"
    managers = {entry["manager"] for entry in got["metadata"]["managedFields"]}
    assert "two" in managers

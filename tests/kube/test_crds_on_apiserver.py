"""Every generated CRD, judged by a real API server (``testbed.apiserver``: the
apiextensions-apiserver over etcd) instead of our stand-ins: accepted as a structural schema,
Established, served, and its objects round-trip; create-only fields are refused on change, add
and remove by the server's own CEL, mutable ones are not; enums are enforced; the status
subresource keeps spec and status apart; the printer columns show the status.

Which fields are fixed is not read from the CRD but from what the generated reconciler refuses
(``expected_fixed``, shared with the in-process CEL test, tests/test_crd_immutability.py, which
keeps the cases judged here too cheaply to send: members, items and entries edited one level
inside a fixed field, and the rule-placement and cost checks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import kubernetes
import pytest

from tests.kube.conftest import CRDS, NAMESPACE, load_crd
from tests.test_crd_immutability import can_change, expected_fixed, references, sample

VERSION = "v1alpha1"
Api = kubernetes.client.CustomObjectsApi


class Kind:
    """One CRD's custom resources on the server."""

    def __init__(
        self, client: kubernetes.client.ApiClient, crd: dict[str, Any], namespace: str = NAMESPACE
    ) -> None:
        self.client, self.crd, self.namespace = client, crd, namespace
        self.group, self.plural = crd["spec"]["group"], crd["spec"]["names"]["plural"]
        self.api = Api(client)
        schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
        self.spec_schema = self.spec_of(crd)
        self.status_schema: dict[str, Any] = schema["status"]["properties"]

    @staticmethod
    def spec_of(crd: dict[str, Any]) -> dict[str, Any]:
        """The spec's properties, by key."""
        return dict(
            crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"][
                "properties"
            ]
        )

    def body(self, name: str, spec: dict[str, Any], version: str | None = None) -> dict[str, Any]:
        metadata = {"name": name, **({"resourceVersion": version} if version else {})}
        return {
            "apiVersion": f"{self.group}/{VERSION}",
            "kind": self.crd["spec"]["names"]["kind"],
            "metadata": metadata,
            "spec": spec,
        }

    def _args(self) -> tuple[str, str, str, str]:
        return self.group, VERSION, self.namespace, self.plural

    def create(self, name: str, spec: dict[str, Any], dry_run: bool = False) -> dict[str, Any]:
        extra = {"dry_run": "All"} if dry_run else {}
        return dict(
            self.api.create_namespaced_custom_object(*self._args(), self.body(name, spec), **extra)
        )

    def get(self, name: str) -> dict[str, Any]:
        return dict(self.api.get_namespaced_custom_object(*self._args(), name))

    def replace(
        self, current: dict[str, Any], spec: dict[str, Any], dry_run: bool = False, **rest: Any
    ) -> dict[str, Any]:
        body = {
            **self.body(current["metadata"]["name"], spec, current["metadata"]["resourceVersion"]),
            **rest,
        }
        extra = {"dry_run": "All"} if dry_run else {}
        return dict(
            self.api.replace_namespaced_custom_object(
                *self._args(), body["metadata"]["name"], body, **extra
            )
        )

    def replace_status(
        self, current: dict[str, Any], status: dict[str, Any], spec: dict[str, Any]
    ) -> dict[str, Any]:
        body = {
            **self.body(current["metadata"]["name"], spec, current["metadata"]["resourceVersion"]),
            "status": status,
        }
        return dict(
            self.api.replace_namespaced_custom_object_status(
                *self._args(), body["metadata"]["name"], body
            )
        )

    def table(self, name: str) -> dict[str, Any]:
        path = f"/apis/{self.group}/{VERSION}/namespaces/{self.namespace}/{self.plural}/{name}"
        return _get(self.client, path, accept="application/json;as=Table;v=v1;g=meta.k8s.io")


def _get(
    client: kubernetes.client.ApiClient, path: str, accept: str = "application/json"
) -> dict[str, Any]:
    answer = client.call_api(
        path,
        "GET",
        header_params={"Accept": accept},
        auth_settings=["BearerToken"],
        _preload_content=False,
    )
    return dict(json.loads(answer.data))


# what the server adds once a schema check failed: CEL rules are not run on an invalid object
NOT_CHECKED = "some validation rules were not checked because the object was invalid"


def refusal(call: Any, *args: Any, **kwargs: Any) -> list[dict[str, Any]] | None:
    """The causes the server gave for refusing the call as invalid, or None if it accepted."""
    try:
        call(*args, **kwargs)
    except kubernetes.client.ApiException as error:
        assert error.status == 422, f"{error.status}: {error.body}"
        causes = json.loads(error.body)["details"]["causes"]
        return [cause for cause in causes if NOT_CHECKED not in cause.get("message", "")]
    return None


def _names(cause: dict[str, Any], key: str) -> bool:
    """Whether a refusal is about ``spec.<key>``: at its path, and, for a CEL rule, in its message."""
    at_key = cause.get("field") == f"spec.{key}"
    return at_key and (
        cause.get("reason") == "FieldValueNotSupported" or key in cause.get("message", "")
    )


def _ids(path: Path) -> str:
    return f"{path.parent.parent.name}-{path.parent.name}-{path.stem}"


def test_every_generated_crd_is_accepted_and_established(
    installed_crds: dict[str, Any], kube_client: kubernetes.client.ApiClient
) -> None:
    assert len(installed_crds) == len(CRDS) > 300
    served = (
        kubernetes.client.ApiextensionsV1Api(kube_client).list_custom_resource_definition().items
    )
    conditions = {
        crd.metadata.name: {c.type: c.status for c in crd.status.conditions} for crd in served
    }
    wrong = {
        name: conditions.get(name)
        for name in installed_crds
        if conditions.get(name, {}).get("NamesAccepted") != "True"
        or conditions[name].get("Established") != "True"
    }
    assert not wrong


def _full(kind: Kind) -> dict[str, Any]:
    """A value for every spec key; an id rather than its reference by name (never both)."""
    refs = references(kind.crd)
    return {key: sample(member, 0) for key, member in kind.spec_schema.items() if key not in refs}


def _without(spec: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k not in keys}


@pytest.mark.parametrize("path", CRDS, ids=_ids)
def test_served_round_trips_and_cel_refuses_create_only_changes(
    path: Path, installed_crds: dict[str, Any], kube_client: kubernetes.client.ApiClient
) -> None:
    crd = load_crd(path)
    kind = Kind(kube_client, crd)
    resources = _get(kube_client, f"/apis/{kind.group}/{VERSION}")["resources"]
    assert {r["name"] for r in resources} >= {kind.plural, f"{kind.plural}/status"}

    full = _full(kind)
    fixed = expected_fixed(crd)
    kind.create("full", full)
    stored = kind.get("full")
    assert stored["spec"] == full, "the server pruned or changed a valid object"
    without_fixed = kind.create("without-fixed", _without(full, *fixed))
    without_mutable = kind.create("without-mutable", _without(full, *(set(full) - fixed)))

    wrong = []

    def expect(what: str, refused: str | None, call: Any, *args: Any, **kwargs: Any) -> None:
        causes = refusal(call, *args, **kwargs)
        if refused is None and causes is not None:
            wrong.append(f"{what}: refused with {causes}")
        elif refused is not None and causes is None:
            wrong.append(f"{what}: accepted")
        elif refused is not None and not all(_names(cause, refused) for cause in causes):
            wrong.append(f"{what}: the refusal does not name {refused}: {causes}")

    for ref, id_key in references(crd).items():
        refused = ref if ref in fixed else None
        by_ref = {**_without(full, id_key), ref: sample(kind.spec_schema[ref], 0)}
        expect(f"{ref} instead of {id_key}", None, kind.create, "by-ref", by_ref, dry_run=True)
        expect(
            f"{ref} beside {id_key}",
            ref,
            kind.create,
            "both",
            {**full, ref: by_ref[ref]},
            dry_run=True,
        )
        if refused:
            stored_ref = kind.create(f"by-{ref.lower()}", by_ref)
            changed = {**by_ref, ref: sample(kind.spec_schema[ref], 1)}
            expect(f"{ref} changed", ref, kind.replace, stored_ref, changed, dry_run=True)
            expect(
                f"{ref} removed", ref, kind.replace, stored_ref, _without(by_ref, ref), dry_run=True
            )
    for key, member in kind.spec_schema.items():
        if key not in full:
            continue
        refused = key if key in fixed else None
        if can_change(member):
            expect(
                f"{key} changed",
                refused,
                kind.replace,
                stored,
                {**full, key: sample(member, 1)},
                dry_run=True,
            )
        expect(f"{key} removed", refused, kind.replace, stored, _without(full, key), dry_run=True)
        before = without_fixed if refused else without_mutable
        expect(
            f"{key} added",
            refused,
            kind.replace,
            before,
            {**before["spec"], key: full[key]},
            dry_run=True,
        )
        if "enum" in member:
            expect(
                f"{key} outside its enum",
                key,
                kind.create,
                "bad-enum",
                {key: "not-in-the-enum"},
                dry_run=True,
            )
    mutable_changed = {key: sample(kind.spec_schema[key], 1) for key in without_fixed["spec"]}
    expect(
        "every mutable field changed",
        None,
        kind.replace,
        without_fixed,
        mutable_changed,
        dry_run=True,
    )
    assert not wrong, "\n".join(wrong)

    _status_is_a_subresource(kind, stored)


READY = {"type": "Ready", "status": "True", "reason": "Converged", "message": "in sync"}


def _status_is_a_subresource(kind: Kind, stored: dict[str, Any]) -> None:
    """A status write leaves the spec alone, a spec write leaves the status alone, and the
    printer columns show what the status says."""
    status = {"conditions": [READY], **({"id": "id-0123"} if "id" in kind.status_schema else {})}
    other_spec = {key: value for key, value in stored["spec"].items() if key != "shared"}
    written = kind.replace_status(stored, status, other_spec)
    assert written["status"] == status and written["spec"] == stored["spec"]
    updated = kind.replace(written, written["spec"], status={"conditions": []})
    assert updated["status"] == status
    _printer_columns_show_the_status(kind, "full", status)


def _printer_columns_show_the_status(kind: Kind, name: str, status: dict[str, Any]) -> None:
    columns = kind.crd["spec"]["versions"][0]["additionalPrinterColumns"]
    shown = {
        ".status.id": status.get("id"),
        '.status.conditions[?(@.type=="Ready")].status': READY["status"],
        '.status.conditions[?(@.type=="Ready")].reason': READY["reason"],
    }
    assert {c["jsonPath"] for c in columns} <= set(shown), "a printer column this test cannot judge"
    table = kind.table(name)
    names = [c["name"] for c in table["columnDefinitions"]]
    assert names[0] == "Name" and names[1 : 1 + len(columns)] == [c["name"] for c in columns], names
    assert table["rows"][0]["cells"][1 : 1 + len(columns)] == [
        shown[c["jsonPath"]] for c in columns
    ]

"""A real API server for the session (``testbed.apiserver``: built once, started on a free
port, stopped at the end), with every generated CRD installed and Established on it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes
import pytest
import yaml

from testbed.apiserver import ApiServer

CRDS = sorted(
    (Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "crds").rglob("*.yaml")
)
NAMESPACE = "default"  # no core API, so no Namespace object: any name is accepted


def load_crd(path: Path) -> dict[str, Any]:
    return dict(yaml.safe_load(path.read_text()))


@pytest.fixture(scope="session")
def apiserver() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


@pytest.fixture(scope="session")
def kube_client(apiserver: ApiServer) -> kubernetes.client.ApiClient:
    client = kubernetes.config.new_client_from_config(str(apiserver.kubeconfig))
    client.configuration.connection_pool_maxsize = 8
    return client


def _conditions(crd: Any) -> dict[str, str]:
    return {c.type: c.status for c in (crd.status.conditions or [])} if crd.status else {}


@pytest.fixture(scope="session")
def installed_crds(kube_client: kubernetes.client.ApiClient) -> dict[str, Any]:
    """Every generated CRD, created on the server, by name once each is Established."""
    api = kubernetes.client.ApiextensionsV1Api(kube_client)
    crds = {crd["metadata"]["name"]: crd for crd in map(load_crd, CRDS)}
    refused = {}
    for name, crd in crds.items():
        try:
            api.create_custom_resource_definition(crd)
        except kubernetes.client.ApiException as error:
            refused[name] = f"{error.status} {error.body}"
    assert not refused, "\n".join(f"{name}: {why}" for name, why in refused.items())
    deadline = time.monotonic() + 300
    while True:
        states = {
            crd.metadata.name: _conditions(crd)
            for crd in api.list_custom_resource_definition().items
        }
        waiting = [name for name in crds if states.get(name, {}).get("Established") != "True"]
        if not waiting:
            return crds
        assert (
            time.monotonic() < deadline
        ), f"not Established after 300 s: {waiting[:10]} ({len(waiting)})"
        time.sleep(0.5)  # the server establishes CRDs in the background, after the create answered

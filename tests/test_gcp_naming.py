"""How a GCP resource is named, from the discovery documents' own facts: the fake names what a
create makes by the member its ``get`` path selects it by (or inside the wrapper member), the
runtime polls an operation with the parameters its waiter method takes, resource-name paths
are built from the scope and a short name, and call paths name parents and scopes rightly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codegen.providers.gcp.rules.aip import template
from tasklayer_tasks.runtime.gcp.operations import operation_params
from tasklayer_tasks.testing import FakeGcp

ROOT = Path(__file__).resolve().parent.parent
P = "proj"


def document(api: str) -> dict[str, Any]:
    return dict(json.loads((ROOT / "schemas" / "gcp" / api / "v1" / "discovery.json").read_text()))


# -- the fake names new resources as the API does ------------------------------------------------


def test_storage_acl_is_named_by_its_entity() -> None:
    fake = FakeGcp(document("storage"))
    api = fake.build()
    api.buckets().insert(project=P, body={"name": "b1"}).execute()  # its parent must exist
    api.bucketAccessControls().insert(bucket="b1", body={"entity": "allUsers", "role": "READER"}).execute()
    got = api.bucketAccessControls().get(bucket="b1", entity="allUsers").execute()
    assert got["role"] == "READER"


def test_dns_response_policy_is_named_by_its_name_member() -> None:
    fake = FakeGcp(document("dns"))
    api = fake.build()
    api.responsePolicies().create(project=P, body={"responsePolicyName": "rp1"}).execute()
    api.responsePolicyRules().create(
        project=P, responsePolicy="rp1", body={"ruleName": "r1", "dnsName": "a.example.com."}
    ).execute()
    assert api.responsePolicies().get(project=P, responsePolicy="rp1").execute()["responsePolicyName"] == "rp1"
    rule = api.responsePolicyRules().get(project=P, responsePolicy="rp1", responsePolicyRule="r1").execute()
    assert rule["dnsName"] == "a.example.com."


def test_a_create_query_id_names_a_resource_whose_body_has_labels() -> None:
    """dns outboundEndpoints: the body is the resource (its labels kept), the id is a query
    parameter; the labels map is not mistaken for a wrapped resource."""
    fake = FakeGcp(document("dns"))
    api = fake.build()
    parent = f"projects/{P}/locations/us-central1"
    api.outboundEndpoints().create(
        parent=parent, outboundEndpointId="ep1", body={"network": "n", "labels": {"k": "v"}}
    ).execute()
    stored = [r for u, r in fake.store.items() if u.endswith("/outboundEndpoints/ep1")]
    assert len(stored) == 1 and stored[0]["labels"] == {"k": "v"}


def test_container_cluster_is_taken_out_of_its_wrapper_with_its_short_name() -> None:
    fake = FakeGcp(document("container"))
    api = fake.build()
    api.projects().zones().clusters().create(projectId=P, zone="z1", body={"cluster": {"name": "c1"}}).execute()
    got = api.projects().zones().clusters().get(projectId=P, zone="z1", clusterId="c1").execute()
    assert got["name"] == "c1" and "cluster" not in got
    parent = f"projects/{P}/locations/l1"
    api.projects().locations().clusters().create(parent=parent, body={"cluster": {"name": "c2"}}).execute()
    got = api.projects().locations().clusters().get(name=f"{parent}/clusters/c2").execute()
    assert got["name"] == "c2"  # the name the client chose, not the path


def test_a_request_naming_nothing_is_refused() -> None:
    fake = FakeGcp(document("storage"))
    with pytest.raises(Exception, match="entity"):  # the member that names it
        fake.build().bucketAccessControls().insert(bucket="b1", body={"role": "READER"}).execute()


def test_an_organization_operation_is_polled_where_its_api_keeps_it() -> None:
    fake = FakeGcp(document("compute"))
    api = fake.build()
    op = api.organizationSecurityPolicies().insert(body={"name": "p1"}).execute()
    assert "/locations/global/operations/" in op["selfLink"]
    assert api.globalOrganizationOperations().get(operation=op["name"]).execute()["status"] == "DONE"


# -- operation polls name their parameters as the waiter method does ----------------------------


def _params(api: str, *path: str) -> dict[str, Any]:
    node: dict[str, Any] = document(api)
    for part in path[:-1]:
        node = node["resources"][part]
    return dict(node["methods"][path[-1]]["parameters"])


def test_operation_params_follow_the_waiter_method() -> None:
    zonal = {"name": "operation-1", "selfLink": "https://container.googleapis.com/v1/projects/p/zones/z/operations/operation-1"}
    assert operation_params(zonal, _params("container", "projects", "zones", "operations", "get")) == {
        "projectId": "p", "zone": "z", "operationId": "operation-1",
    }
    located = {"name": "operation-2", "selfLink": "https://container.googleapis.com/v1/projects/p/locations/l/operations/operation-2"}
    assert operation_params(located, _params("container", "projects", "locations", "operations", "get")) == {
        "name": "projects/p/locations/l/operations/operation-2",
    }
    compute = {"name": "op", "selfLink": "https://compute.googleapis.com/compute/v1/projects/p/regions/r/operations/op"}
    assert operation_params(compute, _params("compute", "regionOperations", "wait")) == {
        "project": "p", "region": "r", "operation": "op",
    }
    assert operation_params(compute) == {"project": "p", "region": "r", "operation": "op"}


# -- resource-name paths ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "short", "expected"),
    [
        ("^projects/[^/]+/locations/[^/]+/clusters/[^/]+$", True, "projects/{project}/locations/{region}/clusters/{name}"),
        ("^projects/[^/]+/locations/[^/]+/clusters/[^/]+$", False, "{name}"),  # the server's full name
        ("^projects/[^/]+/serviceAccounts/[^/]+$", False, "{name}"),
        ("^projects/[^/]+/locations/[^/]+/clusters/[^/]+/nodePools/[^/]+$", True, "{name}"),  # a parent not a scope
    ],
)
def test_item_template_from_scope_and_short_name(pattern: str, short: bool, expected: str) -> None:
    assert template(pattern, item=True, short_name=short) == expected


# -- call paths in the pinned corpus ---------------------------------------------------------------


def test_call_paths_name_scopes_and_identity_members() -> None:
    from tasklayer_tasks.gcp.compute.core.address import SPEC as ADDRESS
    from tasklayer_tasks.gcp.container.core.location_cluster import SPEC as LOCATION_CLUSTER
    from tasklayer_tasks.gcp.container.core.zone_cluster import SPEC as ZONE_CLUSTER
    from tasklayer_tasks.gcp.dns.core.resource_record_set import SPEC as RECORD_SET

    assert dict(ZONE_CLUSTER.read.identity)["projectId"] == "@project"  # container's deprecated project id
    assert dict(RECORD_SET.read.identity)["type"] == "type"  # not the record's name
    assert dict(ADDRESS.read.identity)["address"] == "name"  # its own name, not its IP field
    assert dict(LOCATION_CLUSTER.read.identity)["name"] == "=projects/{project}/locations/{region}/clusters/{name}"

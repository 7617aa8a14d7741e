"""gcp.parent-resource-is-reference: a resource created inside another one is given it by a
field that refers to it, and its create and list put that resource's whole name in their path.
On a tiny discovery document (with the rule id that decided it), then on the pinned documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.model import Mutability, Service
from codegen.providers.gcp.rules.run import annotate_document
from codegen.providers.gcp.shapes import gcp
from codegen.providers.gcp.source import load_pinned
from tests.test_rules_gcp import method, param, prop

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
RULE = "rule:gcp.parent-resource-is-reference"
POOLS = "v1/projects/{projectsId}/locations/{locationsId}/pools"
POOL = "^projects/[^/]+/locations/[^/]+/pools/[^/]+$"
ACCOUNTS = "v1/projects/{projectsId}/accounts"
ACCOUNT = "^projects/[^/]+/accounts/[^/]+$"


def _collection(mid: str, flat: str, parent: tuple[str, str], item: str, schema: str, id_param: str | None,
                sub: dict[str, Any] | None = None) -> dict[str, Any]:
    """create/list at ``v1/{+<parent>}/<leaf>``, get/delete at ``v1/{+name}``."""
    name, pattern = parent
    leaf = flat.rsplit("/", 1)[-1]
    at_parent = {name: param(pattern=pattern), **({id_param: param("query", False)} if id_param else {})}
    own = {"name": param(pattern=item)}
    out: dict[str, Any] = {"methods": {
        "create": method(f"{mid}.create", "POST", f"v1/{{+{name}}}/{leaf}", at_parent, request=schema, flat=flat),
        "list": method(f"{mid}.list", "GET", f"v1/{{+{name}}}/{leaf}", {name: param(pattern=pattern)},
                       response=schema + "List", flat=flat),
        "get": method(f"{mid}.get", "GET", "v1/{+name}", own, response=schema, flat=flat + "/{id}"),
        "delete": method(f"{mid}.delete", "DELETE", "v1/{+name}", own, flat=flat + "/{id}"),
    }}
    if sub:
        out["resources"] = sub
    return out


def toy_document() -> dict[str, Any]:
    scoped = ("parent", "^projects/[^/]+/locations/[^/]+$")
    keys = _collection("toy.projects.locations.pools.keys", POOLS + "/{poolsId}/keys", ("parent", POOL),
                       POOL[:-1] + "/keys/[^/]+$", "PoolKey", "poolKeyId")
    pools = _collection("toy.projects.locations.pools", POOLS, scoped, POOL, "Pool", "poolId", {"keys": keys})
    # iam's serviceAccounts.keys form: the parent is named {+name}, the key by the server alone
    account_keys = _collection("toy.projects.accounts.keys", ACCOUNTS + "/{accountsId}/keys", ("name", ACCOUNT),
                               ACCOUNT[:-1] + "/keys/[^/]+$", "AccountKey", None)
    accounts = _collection("toy.projects.accounts", ACCOUNTS, ("name", "^projects/[^/]+$"), ACCOUNT, "Account",
                           "accountId", {"keys": account_keys})
    # a parent that is neither scopes nor a resource of the document: no field is made up
    roles = _collection("toy.organizations.roles", "v1/organizations/{organizationsId}/roles",
                        ("parent", "^organizations/[^/]+$"), "^organizations/[^/]+/roles/[^/]+$", "Role", "roleId")
    schemas: dict[str, Any] = {"Operation": {"id": "Operation", "type": "object", "properties": {
        "name": prop(), "done": prop(kind="boolean")}}}
    for schema in ("Pool", "PoolKey", "Account", "AccountKey", "Role"):
        schemas[schema] = {"id": schema, "type": "object", "properties": {
            "name": prop(f"Identifier. The resource name of the {schema}."), "displayName": prop("A name.")}}
        schemas[schema + "List"] = {"id": schema + "List", "type": "object", "properties": {
            "items": {"type": "array", "items": {"$ref": schema}}, "nextPageToken": prop()}}
    return {"kind": "discovery#restDescription", "name": "toy", "version": "v1", "revision": "20240101",
            "schemas": schemas, "resources": {
                "projects": {"resources": {"locations": {"resources": {"pools": pools}}, "accounts": accounts}},
                "organizations": {"resources": {"roles": roles}}}}


@pytest.fixture(scope="module")
def toy() -> Service:
    _, draft = annotate_document(toy_document(), service="toy", api_version="v1")
    return draft.freeze()


def test_a_nested_resource_refers_to_its_parent_and_its_create_and_list_name_it(toy: Service) -> None:
    key = toy.resource("PoolKey")
    f = key.field("pool")
    assert (f.references, f.mutability, f.write_only, f.in_create) == ("Pool", Mutability.CREATE_ONLY, True, False)
    assert f.source == RULE and f.provenance["references"] == RULE
    assert key.identity.parent == ("project", "location", "pool")
    create, listing = key.operations.create, key.operations.list
    assert create is not None and gcp(create).param_templates == (("parent", "{pool}"),)
    assert listing is not None and gcp(listing).param_templates == (("parent", "{pool}"),)
    assert key.operations.read is not None and gcp(key.operations.read).param_templates == (("name", "{name}"),)


def test_the_parent_may_be_named_by_name(toy: Service) -> None:
    key = toy.resource("AccountKey")
    assert key.field("account").references == "Account"
    assert key.operations.create is not None and gcp(key.operations.create).param_templates == (("name", "{account}"),)


def test_scopes_and_unknown_parents_make_no_field(toy: Service) -> None:
    pool = toy.resource("Pool")
    assert not any(f.references for f in pool.fields)
    assert pool.operations.create is not None
    assert gcp(pool.operations.create).param_templates == (("parent", "projects/{project}/locations/{region}"),)
    role = toy.resource("Role")
    assert [f.name for f in role.fields if f.source == RULE] == []
    assert role.operations.create is not None and gcp(role.operations.create).param_templates == ()


@pytest.fixture(scope="module")
def pinned() -> dict[str, Service]:
    out = {}
    for api in ("iam", "container"):
        src = load_pinned(SCHEMAS, api)
        _, draft = annotate_document(src.document, service=api, api_version=src.version)
        out[api] = draft.freeze()
    return out


# (api, resource, the field naming its parent, the kind it refers to, the create's path parameter);
# checked against each create method's reference page ("parent: Required. The ... to create ... in.
# Format: ...") at https://cloud.google.com/iam/docs/reference/rest and
# https://cloud.google.com/kubernetes-engine/docs/reference/rest
PARENTS = [
    ("iam", "OauthClientCredential", "oauthClient", "OauthClient", "parent"),
    ("iam", "ServiceAccountKey", "serviceAccount", "ServiceAccount", "name"),
    ("iam", "WorkforcePoolProvider", "workforcePool", "WorkforcePool", "parent"),
    ("iam", "WorkforcePoolProviderKey", "provider", "WorkforcePoolProvider", "parent"),
    ("iam", "WorkforcePoolProviderScimTenant", "provider", "WorkforcePoolProvider", "parent"),
    ("iam", "WorkforcePoolProviderScimToken", "scimTenant", "WorkforcePoolProviderScimTenant", "parent"),
    ("iam", "WorkloadIdentityPoolNamespace", "workloadIdentityPool", "WorkloadIdentityPool", "parent"),
    ("iam", "WorkloadIdentityPoolManagedIdentity", "namespace", "WorkloadIdentityPoolNamespace", "parent"),
    ("iam", "WorkloadIdentityPoolProvider", "workloadIdentityPool", "WorkloadIdentityPool", "parent"),
    ("iam", "WorkloadIdentityPoolProviderKey", "provider", "WorkloadIdentityPoolProvider", "parent"),
    ("container", "ProjectLocationClusterNodePool", "cluster", "LocationCluster", "parent"),
]


@pytest.mark.parametrize("api, resource, field, target, path_param", PARENTS)
def test_pinned_parents(pinned: dict[str, Service], api: str, resource: str, field: str, target: str,
                        path_param: str) -> None:
    r = pinned[api].resource(resource)
    f = r.field(field)
    assert (f.references, f.mutability, f.source) == (target, Mutability.CREATE_ONLY, RULE)
    assert r.operations.create is not None
    assert dict(gcp(r.operations.create).param_templates)[path_param] == "{" + field + "}"


def test_pinned_top_level_resources_have_no_parent_field(pinned: dict[str, Service]) -> None:
    made = {(api, r.name) for api, s in pinned.items() for r in s.resources
            if any(f.source == RULE for f in r.fields)}
    assert made == {(api, resource) for api, resource, *_ in PARENTS}

"""References by custom resource name (``capi/references.py``), in-process: what a spec's
``vpcRef`` resolves to, the reasons it does not yet, and the kopf handlers' use of them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kopf
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2.core.instance import SPEC as INSTANCE
from tasklayer_tasks.aws.ec2.core.subnet import SPEC as SUBNET
from tasklayer_tasks.aws.ec2.operator import RECONCILERS
from tasklayer_tasks.runtime.capi.operator import reconcile_handler
from tasklayer_tasks.runtime.capi.references import Referent, Referents, resolve
from testbed.stack import counted_context

READY = {"id": "vpc-1", "conditions": [{"type": "Ready", "status": "True"}]}


def test_the_generated_specs_name_their_references() -> None:
    assert SUBNET.field("VpcId").ref_key == "vpcRef"
    assert INSTANCE.field("SecurityGroupIds").ref_key == "securityGroupRefs"


def test_a_reference_resolves_to_the_ready_objects_id() -> None:
    seen = Referents()
    seen.saw("Vpc", "ns", "net", READY)
    spec, problem = resolve(SUBNET, {"name": "a", "vpcRef": {"name": "net"}}, seen.lookup("ns"))
    assert problem is None and spec == {"name": "a", "vpcId": "vpc-1"}
    # another namespace's object of that name is not this one's
    _, elsewhere = resolve(SUBNET, {"vpcRef": {"name": "net"}}, seen.lookup("other"))
    assert elsewhere is not None and elsewhere.reason == "DependencyNotFound"


def test_not_ready_or_without_an_id_is_not_ready() -> None:
    seen = Referents()
    seen.saw("Vpc", "ns", "net", {"id": "vpc-1", "conditions": [{"type": "Ready", "status": "False"}]})
    seen.saw("Vpc", "ns", "new", {})
    for name, why in (("net", "is not Ready"), ("new", "has no id yet")):
        _, problem = resolve(SUBNET, {"vpcRef": {"name": name}}, seen.lookup("ns"))
        assert problem is not None and problem.reason == "DependencyNotReady" and why in problem.message
    seen.forget("Vpc", "ns", "net")
    _, problem = resolve(SUBNET, {"vpcRef": {"name": "net"}}, seen.lookup("ns"))
    assert problem is not None and problem.reason == "DependencyNotFound"


def test_a_list_of_references_resolves_to_a_list_of_ids() -> None:
    seen = Referents()
    for name in ("a", "b"):
        seen.saw("SecurityGroup", "ns", name, {**READY, "id": f"sg-{name}"})
    spec, problem = resolve(INSTANCE, {"securityGroupRefs": [{"name": "a"}, {"name": "b"}]}, seen.lookup("ns"))
    assert problem is None and spec == {"securityGroupIds": ["sg-a", "sg-b"]}


def test_a_delete_goes_on_with_what_the_status_recorded() -> None:
    spec, problem = resolve(SUBNET, {"vpcRef": {"name": "gone"}}, Referents().lookup("ns"), {"vpcId": "vpc-9"})
    assert problem is None and spec == {"vpcId": "vpc-9"}
    spec, problem = resolve(SUBNET, {"vpcRef": {"name": "gone"}}, Referents().lookup("ns"), {})
    assert problem is None and spec == {}


@pytest.fixture
def cloud() -> Iterator[Any]:
    with mock_aws():
        yield counted_context()


def test_the_handler_waits_for_its_reference_without_a_cloud_call(cloud: Any) -> None:
    context, calls = cloud
    seen = Referents()
    patch = kopf.Patch()
    spec = {"name": "a", "vpcRef": {"name": "net"}, "cidrBlock": "10.0.1.0/24"}
    with pytest.raises(kopf.TemporaryError) as err:
        reconcile_handler(RECONCILERS["subnets"], context, spec, {}, patch, {}, "ns", seen.lookup("ns"), 2.0)
    assert err.value.delay == 2.0 and "DependencyNotFound" in str(err.value)
    assert patch.status["conditions"][0]["reason"] == "DependencyNotFound"
    assert calls.writes() == {} and Referent.of(patch.status).ready is False

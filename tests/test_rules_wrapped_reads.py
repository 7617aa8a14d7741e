"""aws.read-through-wrapper, aws.terminal-states-from-deleted-waiter and the parent order of a
kind read inside another's items (aws.parent-scope), on a toy model and the pinned EC2 model; and
the runtime reading wrapped items and a dotted terminal state (moto): an instance is read out of
its reservation, found by the id RunInstances gave, and once terminated is no live resource."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.model import ServiceModel
from botocore.waiter import WaiterModel
from moto import mock_aws

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws
from codegen.providers.aws.source import load_pinned
from tests.toy_model import TOY, _op, _struct

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _toy() -> Service:
    model: dict[str, Any] = copy.deepcopy(TOY)
    model["operations"].update({
        "RunMachines": _op("RunMachines", "RunMachinesRequest", "Lease"),
        "DescribeMachines": _op("DescribeMachines", "DescribeMachinesRequest", "DescribeMachinesResult"),
        "TerminateMachines": _op("TerminateMachines", "MachineIds"),
    })
    model["shapes"].update({
        "MachineState": _struct({"Code": "String", "Name": "String"}),
        "Machine": _struct({"MachineId": "String", "Size": "String", "State": "MachineState", "Tags": "TagList"}),
        "MachineList": {"type": "list", "member": {"shape": "Machine"}},
        "Lease": _struct({"LeaseId": "String", "Machines": "MachineList"}),
        "LeaseList": {"type": "list", "member": {"shape": "Lease"}},
        "RunMachinesRequest": _struct({"Size": "String", "TagSpecifications": "TagSpecificationList"}, ("Size",)),
        "DescribeMachinesRequest": _struct({"MachineIds": "WidgetIdList"}),
        "DescribeMachinesResult": _struct({"Leases": "LeaseList"}),
        "MachineIds": _struct({"MachineIds": "WidgetIdList"}, ("MachineIds",)),
    })
    waiters = WaiterModel({"version": 2, "waiters": {"MachineTerminated": {
        "operation": "DescribeMachines", "delay": 1, "maxAttempts": 2,
        "acceptors": [{"state": "success", "matcher": "pathAll", "expected": "terminated",
                       "argument": "Leases[].Machines[].State.Name"}]}}})
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy",
                              api_version="2020-01-01", waiters=waiters)
    return draft.freeze()


def test_a_wrapped_kind_is_read_item_by_item_and_made_with_its_id() -> None:
    machine = _toy().resource("Machine")
    read, create = machine.operations.read, machine.operations.create
    assert read is not None and read.output_member == "Leases" and aws(read).wrapped_member == "Machines"
    assert machine.identity.primary == ("MachineId",)
    assert create is not None and (create.output_member, create.id_member) == ("Machines", "MachineId")
    assert machine.readiness is not None
    assert (machine.readiness.field, machine.readiness.failed, machine.readiness.ready) == (
        "State.Name", ("terminated",), None)


@pytest.fixture(scope="module")
def ec2() -> Service:
    src = load_pinned(SCHEMAS, "ec2")
    _, draft = annotate_model(src.model, service="ec2", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return draft.freeze()


def test_pinned_instance(ec2: Service) -> None:
    instance = ec2.resource("Instance")
    read = instance.operations.read
    assert read is not None and (read.output_member, aws(read).wrapped_member) == ("Reservations", "Instances")
    assert instance.identity.primary == ("InstanceId",)
    assert instance.readiness is not None and instance.readiness.field == "State.Name"
    assert "terminated" in instance.readiness.failed


def test_pinned_peering_and_attachment(ec2: Service) -> None:
    peering = ec2.resource("VpcPeeringConnection").readiness
    assert peering is not None and (peering.field, peering.failed) == ("Status.Code", ("deleted",))
    # a volume attachment is listed in its Volume's Attachments: read by the VolumeId first
    assert ec2.resource("VolumeAttachment").identity.parent[0] == "VolumeId"


def test_an_instance_is_found_out_of_its_reservation_and_not_once_terminated() -> None:
    from tasklayer_tasks.aws.ec2.core.instance import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("ec2", region_name="us-east-1")
        core = AwsCore(SPEC, client)
        made = core.create({"ImageId": "ami-12c6146b", "InstanceType": "t3.micro", "MinCount": 1, "MaxCount": 1},
                           token="t-1")
        (found,) = core.find(made, "")
        assert found["InstanceId"] == made["InstanceId"] and not SPEC.terminal(found)
        core.delete(found)
        (gone,) = core.find(made, "")  # still described, as terminated
        assert SPEC.terminal(gone)

"""aws.put-overwrite-flag on a toy model and the pinned SSM model, and the runtime's update call
restating required members from the state as read (moto): a Put that replaces only when told
sends ``Overwrite=True`` in its updates, never in its create; ReplaceNetworkAclEntry, which
needs the whole entry, changes RuleAction with the Protocol the entry has."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import boto3
from botocore.model import ServiceModel
from moto import mock_aws

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws
from codegen.providers.aws.source import load_pinned
from tests.toy_model import TOY

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _toy(with_flag: bool) -> Service:
    model: dict[str, Any] = copy.deepcopy(TOY)
    if with_flag:
        model["shapes"]["PutGadgetRequest"]["members"]["Overwrite"] = {"shape": "Boolean"}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_a_put_with_an_overwrite_flag_sends_it_in_updates_only() -> None:
    gadget = _toy(True).resource("Gadget")
    assert "Overwrite" not in {f.name for f in gadget.fields}
    put = [op for op in gadget.operations.update if op.name == "PutGadget"]
    assert len(put) == 1 and aws(put[0]).fixed_members == (("Overwrite", True),)
    assert "Overwrite" not in put[0].fields
    assert gadget.provenance["update"] == "rule:aws.put-overwrite-flag"


def test_a_put_without_the_flag_sends_nothing_more() -> None:
    gadget = _toy(False).resource("Gadget")
    assert all(aws(op).fixed_members == () for op in gadget.operations.update)


def test_pinned_ssm_parameter() -> None:
    src = load_pinned(SCHEMAS, "ssm")
    _, draft = annotate_model(src.model, service="ssm", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    parameter = draft.freeze().resource("Parameter")
    put = [op for op in parameter.operations.update if op.name == "PutParameter"]
    assert aws(put[0]).fixed_members == (("Overwrite", True),)
    assert parameter.field("Value").update_operation == "PutParameter"


def test_a_parameter_changes_through_put_with_overwrite() -> None:
    from tasklayer_tasks.aws.ssm.core.parameter import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("ssm", region_name="us-east-1")
        core = AwsCore(SPEC, client)
        core.create({"Name": "/app/p1", "Value": "one", "Type": "String"})
        (actual,) = core.find({"Name": "/app/p1"}, "/app/p1")
        core.update(actual, {"Value": "two"})
        assert client.get_parameter(Name="/app/p1")["Parameter"]["Value"] == "two"


def test_a_replace_restates_the_required_members_as_read() -> None:
    from tasklayer_tasks.aws.ec2.core.network_acl_entry import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("ec2", region_name="us-east-1")
        vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
        acl = client.create_network_acl(VpcId=vpc)["NetworkAcl"]["NetworkAclId"]
        entry = {"NetworkAclId": acl, "RuleNumber": 100, "Egress": False, "Protocol": "6",
                 "RuleAction": "allow", "CidrBlock": "10.0.0.0/24", "PortRange": {"From": 80, "To": 80}}
        client.create_network_acl_entry(**entry)
        core = AwsCore(SPEC, client)
        (actual,) = core.find({"NetworkAclId": acl, "RuleNumber": 100, "Egress": False}, "e")
        core.update(actual, {"RuleAction": "deny"})
        (read,) = [e for e in client.describe_network_acls(NetworkAclIds=[acl])["NetworkAcls"][0]["Entries"]
                   if e["RuleNumber"] == 100]
        assert (read["RuleAction"], read["Protocol"]) == ("deny", "6")

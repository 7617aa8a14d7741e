"""What a newcomer reads of the generated classes: constructors without runtime internals,
field facts a tool can read, one form of a security group rule, reconcilers documented, and
the step reconciler shipped in the package."""

from __future__ import annotations

import inspect
import pydoc

import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import SecurityGroup, SecurityGroupIngress, Vpc
from tasklayer_tasks.aws.ec2.reconcilers import VpcReconciler
from tasklayer_tasks.runtime import CloudTarget, Executor, TaskError
from tasklayer_tasks.runtime.capi.reconciler import Result
from tasklayer_tasks.runtime.contract.spec import Mutability
from tasklayer_tasks.runtime.kops.translate import from_state
from testbed.stack import counted_context


def test_constructor_takes_no_runtime_internals() -> None:
    params = inspect.signature(Vpc).parameters
    assert "observed" not in params and {"name", "cidr_block", "shared", "lifecycle"} <= set(params)
    assert "observed=" not in pydoc.render_doc(Vpc)
    vpc = Vpc(name="demo")
    assert vpc.observed == {}  # still the runtime's, set by a find
    found = from_state(vpc, {"VpcId": "vpc-1", "CidrBlock": "10.0.0.0/16"})
    assert found.observed == {"VpcId": "vpc-1", "CidrBlock": "10.0.0.0/16"} and found.cidr_block == "10.0.0.0/16"


def test_fields_say_mutability_required_and_docs() -> None:
    by_attr = {f.attr: f for f in Vpc.fields()}
    cidr, dns = by_attr["cidr_block"], by_attr["enable_dns_hostnames"]
    assert (cidr.api_name, cidr.key, cidr.mutability) == ("CidrBlock", "cidrBlock", Mutability.CREATE_ONLY)
    assert dns.mutability is Mutability.MUTABLE and "DNS hostnames" in dns.documentation
    assert by_attr["dhcp_options"].references == "DhcpOptions"
    assert "id" not in by_attr and "observed" not in by_attr
    group = {f.attr: f for f in SecurityGroup.fields()}
    assert group["description"].required and not group["group_name"].required
    assert group["group_name"].from_task_name and group["vpc"].references == "Vpc"


def test_a_rule_takes_its_flat_fields_or_ip_permissions_not_both() -> None:
    ip_permissions = {f.attr: f for f in SecurityGroupIngress.fields()}["ip_permissions"]
    assert "Another form of FromPort, IpProtocol, ToPort: give one form, not both" in ip_permissions.documentation
    with mock_aws():
        context, calls = counted_context()
        vpc = Vpc(name="demo", cidr_block="10.0.0.0/16")
        group = SecurityGroup(name="nodes", vpc=vpc, description="nodes")
        both = SecurityGroupIngress(name="ssh", security_group=group, from_port=22, to_port=22, ip_protocol="tcp",
                                    ip_permissions=[{"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22}])
        with pytest.raises(TaskError, match="give ip_permissions or from_port, ip_protocol, to_port, not both"):
            Executor(CloudTarget(context), sleep=lambda _: None).run([vpc, group, both])
        assert "AuthorizeSecurityGroupIngress" not in calls.writes()  # refused before its create


def test_reconcilers_document_their_verbs_and_status() -> None:
    assert "VpcStatus" in (VpcReconciler.__doc__ or "") and "InvalidSpec" in (VpcReconciler.__doc__ or "")
    assert "requeue_after" in (VpcReconciler.reconcile.__doc__ or "")
    assert "NotFound" in (VpcReconciler.delete.__doc__ or "")
    assert "``id``" in (Result.__doc__ or "") and "conditions" in (Result.__doc__ or "")


def test_step_reconciler_is_the_packages() -> None:
    from examples.aws_network import NetworkReconciler
    from tasklayer_tasks.runtime.capi.steps import StepReconciler

    assert issubclass(NetworkReconciler, StepReconciler)
    assert StepReconciler.reconcile.__doc__ and StepReconciler.delete.__doc__

"""aws.add-remove-pair-updates on the pinned models, and which of its fields the runtime
performs (codegen/render/capability.py): an instance profile's Roles are added by
AddRoleToInstanceProfile and removed by RemoveRoleFromInstanceProfile, each naming a RoleName;
a NAT gateway's secondary allocations are removed under another member (AssociationIds, which
needs a lookup) and an Auto Scaling group's EnabledMetrics are structures the calls do not
take, so those two stay create-only / read-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.model import Mutability, Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned
from codegen.render.capability import as_performed, performed

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def annotated(name: str) -> Service:
    src = load_pinned(SCHEMAS, name)
    _, draft = annotate_model(src.model, service=name, api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return draft.freeze()


@pytest.fixture(scope="module")
def iam() -> Service:
    return annotated("iam")


def test_instance_profile_roles_are_a_membership(iam: Service) -> None:
    roles = iam.resource("InstanceProfile").field("Roles")
    assert (roles.update_operation, roles.update_name, roles.remove_operation, roles.update_kind) == (
        "AddRoleToInstanceProfile", "RoleName", "RemoveRoleFromInstanceProfile", "add_remove")
    assert roles.unordered and roles.provenance["remove_operation"] == "rule:aws.add-remove-pair-updates"
    assert performed(roles) and as_performed(roles) is roles
    # a list field set by a plain update is no membership
    assert iam.resource("Role").field("Tags").remove_operation is None


def test_only_memberships_the_runtime_can_compare_and_send_stay_mutable() -> None:
    asg = annotated("autoscaling").resource("AutoScalingGroup")
    target_groups = asg.field("TargetGroupARNs")
    assert target_groups.update_kind == "add_remove" and performed(target_groups)
    metrics = asg.field("EnabledMetrics")
    assert metrics.update_kind == "add_remove" and not performed(metrics)
    assert as_performed(metrics).mutability is Mutability.READ_ONLY
    nat = annotated("ec2").resource("NatGateway").field("SecondaryAllocationIds")
    assert (nat.update_kind, nat.remove_name) == ("add_remove", "AssociationIds")
    degraded = as_performed(nat)
    assert not performed(nat) and degraded.mutability is Mutability.CREATE_ONLY
    assert (degraded.update_operation, degraded.remove_operation, degraded.update_kind) == (None, None, None)

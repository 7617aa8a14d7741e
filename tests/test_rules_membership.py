"""aws.membership-add-remove on the pinned IAM model: an instance profile's Roles are added by
AddRoleToInstanceProfile and removed by RemoveRoleFromInstanceProfile, each naming a RoleName."""

from __future__ import annotations

from pathlib import Path

from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def test_instance_profile_roles_are_a_membership() -> None:
    src = load_pinned(SCHEMAS, "iam")
    _, draft = annotate_model(src.model, service="iam", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    service = draft.freeze()
    roles = service.resource("InstanceProfile").field("Roles")
    assert (roles.update_operation, roles.update_name, roles.remove_operation) == (
        "AddRoleToInstanceProfile", "RoleName", "RemoveRoleFromInstanceProfile")
    assert roles.unordered and roles.provenance["remove_operation"] == "rule:aws.membership-add-remove"
    # a list field set by a plain update is no membership
    assert service.resource("Role").field("Tags").remove_operation is None

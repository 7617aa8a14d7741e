"""Membership lists: an instance profile's roles.

``AddRoleToInstanceProfile(InstanceProfileName, RoleName)`` adds one role to the profile's
``Roles`` (which the read returns as whole Role structures) and
``RemoveRoleFromInstanceProfile`` takes the same members to take it out. The field is then a set
of the items' ``RoleName``s: missing ones are added, extra ones removed, one call each.
"""

from __future__ import annotations

from codegen.annotate.rules import rule, source
from codegen.providers.aws.rules.context import AwsContext, split_operation


@rule("aws.membership-add-remove")
def membership_add_remove(ctx: AwsContext) -> None:
    """A list field of structures updated by an ``Add`` call whose member names one item
    (``RoleName``, a member of the item structure) is removed from by the ``Remove`` call that
    requires the same members; it is compared as a set of that member's values."""
    rid = source("aws.membership-add-remove")
    for resource in ctx.resources():
        for f in resource.fields.values():
            add, member = f.get("update_operation"), f.get("update_name")
            if not add or not member or split_operation(add)[0] != "Add" or f.type.kind != "list":
                continue
            item = f.type.item
            if item is None or member not in dict(item.members):
                continue
            wanted = sorted(ctx.required_inputs(add))
            removes = [n for n in ctx.operation_names
                       if split_operation(n)[0] == "Remove" and sorted(ctx.required_inputs(n)) == wanted]
            if len(removes) == 1:
                f.set("remove_operation", removes[0], rid)
                f.set("unordered", True, rid)

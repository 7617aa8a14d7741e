"""Versioned resources: a change is a new version, made the default.

``Create<R>Version`` (CreateLaunchTemplateVersion) takes the fields a version holds; the
resource's read (DescribeLaunchTemplates) names only its default version's number
(``DefaultVersionNumber``) and the versions are read by number (DescribeLaunchTemplateVersions
``Versions``); the resource's own update takes the default (ModifyLaunchTemplate
``DefaultVersion``). kOps changes a launch template exactly so: a new version, then the default
moved to it. A resource whose API lacks any of these parts is left to
``aws.versioned-create-is-update`` alone (its fields are then changed, never read back:
TrafficPolicy's versions have no default).
"""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Versioning
from codegen.providers.aws.rules.context import AwsContext, list_item, members


def _number(shape: Shape) -> str | None:
    return next((m for m in members(shape) if m.endswith("VersionNumber")), None)


def _read(
    ctx: AwsContext, resource: ResourceDraft, noun: str, fields: tuple[str, ...]
) -> tuple[str, str, str] | None:
    """(operation, output list member, versions input member) of the read that lists versions
    by number and returns the versioned fields."""
    for op_name in (f"Describe{noun}s", f"List{noun}s", f"Get{noun}"):
        if op_name not in ctx.operation_names:
            continue
        inputs = ctx.input_members(op_name)
        selector = next((m for m in ("Versions", "VersionNumbers") if m in inputs), None)
        if selector is None or not any(p in inputs for p in resource.primary):
            continue
        for member, shape in ctx.output_members(op_name).items():
            item = list_item(shape)
            if item is not None and all(f in members(item) for f in fields):
                return op_name, member, selector
    return None


@rule("aws.versioned-resource")
def versioned_resources(ctx: AwsContext) -> None:
    """A resource updated through ``Create<R>Version`` whose read names its default version's
    number, whose versions can be read by number and whose own update sets the default: changes
    to the version's fields make one new version and move the default to it; those fields are
    read from the default version (so they are compared, not write-only)."""
    rid = source("aws.versioned-resource")
    for resource in ctx.resources():
        call = next(
            (
                op
                for op in resource.update
                if op.name.endswith("Version") and op.name.startswith("Create")
            ),
            None,
        )
        if call is None or resource.shape is None:
            continue
        noun = call.name[len("Create") :]
        answer = next(
            ((m, _number(s)) for m, s in ctx.output_members(call.name).items() if _number(s)), None
        )
        read_members = members(ctx.model.shape_for(resource.shape))
        default_number = next(
            (m for m in read_members if m.startswith("Default") and m.endswith("VersionNumber")),
            None,
        )
        read = _read(ctx, resource, noun, call.fields)
        if answer is None or default_number is None or read is None:
            continue
        default = next(
            (
                (op.name, name)
                for op in resource.update
                if op is not call
                for name in op.fields
                if name.startswith("Default") and name.endswith("Version")
            ),
            (None, None),
        )
        resource.set(
            "versioning",
            Versioning(
                create_operation=call.name,
                answer_member=answer[0],
                number_member=str(answer[1]),
                read_operation=read[0],
                read_output=read[1],
                versions_member=read[2],
                default_number=default_number,
                default_operation=default[0],
                default_member=default[1],
                fields=call.fields,
                source=rid,
            ),
            rid,
        )
        for name in call.fields:
            resource.fields[name].set("write_only", False, rid)  # read from the default version

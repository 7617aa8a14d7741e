"""Create calls with two forms: flat members and a structured list that says more.

AuthorizeSecurityGroupIngress takes a rule flat (IpProtocol, FromPort, ToPort, CidrIp) or as
``IpPermissions`` items, whose ``Ipv6Ranges[].CidrIpv6`` the flat form cannot say. A field
reads return (CidrIpv6) that only the structured form carries is set at creation through it,
not read-only.
"""

from __future__ import annotations

from botocore.model import ListShape, Shape, StructureShape

from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.aws.rules.context import AwsContext, list_item, members
from codegen.providers.aws.rules.fields import create_inputs


def _paths(shape: Shape, prefix: str, depth: int = 3) -> dict[str, list[str]]:
    """Member name -> paths to it inside a (list of) structure, a few levels down."""
    out: dict[str, list[str]] = {}
    if depth == 0:
        return out
    if isinstance(shape, ListShape):
        return _paths(shape.member, prefix + "[]", depth)
    if not isinstance(shape, StructureShape):
        return out
    for name, member in shape.members.items():
        out.setdefault(name, []).append(f"{prefix}.{name}")
        for inner, paths in _paths(member, f"{prefix}.{name}", depth - 1).items():
            out.setdefault(inner, []).extend(paths)
    return out


@rule("aws.structured-create-form")
def structured_create(ctx: AwsContext) -> None:
    """When a create takes a list of structures that repeats some of its flat members (the
    IpPermissions form of AuthorizeSecurityGroupIngress repeats IpProtocol, FromPort, ToPort),
    a field reads return but the flat form lacks, found at one path inside that list
    (``IpPermissions[].Ipv6Ranges[].CidrIpv6``), is set at creation through that path:
    create-only (unless an update changes it), with the path recorded."""
    rid = source("aws.structured-create-form")
    for resource in ctx.resources():
        flat = create_inputs(ctx, resource)
        for member, shape in flat.items():
            item = list_item(shape)
            if item is None or item.type_name != "structure":
                continue
            if len(set(members(item)) & set(flat)) < 2:
                continue  # not a second form of the same create
            paths = _paths(shape, member)
            for f in resource.fields.values():
                found = paths.get(f.get("read_name") or f.name, [])
                if f.in_create or len(found) != 1:
                    continue
                f.set("create_path", found[0], rid)
                if "mutability" not in f.provenance:
                    f.set("mutability", Mutability.CREATE_ONLY, rid)

"""Found by name through a list that starts at a name (Route 53's ListHostedZonesByName)."""

from __future__ import annotations

import dataclasses

from codegen.annotate.rules import rule, source
from codegen.providers.aws.rules.context import AwsContext, is_list_of
from codegen.providers.aws.shapes import aws, with_aws


@rule("aws.found-by-name-list")
def found_by_name_list(ctx: AwsContext) -> None:
    """A resource whose read selects only by id (GetHostedZone ``Id``) and whose natural key is
    a create member (``Name``, typed ``DNSName``) is found by a ``List…ByName`` operation that
    lists the resource's shape and takes a member of that same type (``DNSName``): the list then
    selects by the natural key (one value; the items after it are told apart on the client)."""
    rid = source("aws.found-by-name-list")
    for resource in ctx.resources():
        read, natural = resource.read, [n for n in resource.natural if not n.startswith("tag:")]
        if read is None or read.natural_filter or aws(read).filters_member or len(natural) != 1:
            continue
        if resource.create is None or natural[0] not in ctx.input_members(resource.create.name):
            continue
        key_shape = ctx.input_members(resource.create.name)[natural[0]].name
        for name in ctx.operation_names:
            if not (name.startswith("List") and name.endswith("ByName")):
                continue
            inputs, outputs = ctx.input_members(name), ctx.output_members(name)
            member = next((m for m, s in inputs.items() if s.name == key_shape), None)
            listed = next(
                (m for m, s in outputs.items() if is_list_of(s, resource.shape)),
                None,
            )
            if member is None or listed is None:
                continue
            op = dataclasses.replace(
                resource.list or read,
                name=name,
                role="list",
                output_member=listed,
                output_is_list=True,
                id_filter=None,
                natural_filter=member,
                source=rid,
            )
            resource.set(
                "list",
                with_aws(
                    op,
                    natural_filter_is_list=inputs[member].type_name == "list",
                    id_filter_is_list=False,
                ),
                rid,
            )
            break

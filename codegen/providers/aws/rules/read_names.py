"""Create members the read returns under the resource's own name."""

from __future__ import annotations

from codegen.annotate.rules import rule, source
from codegen.providers.aws.rules.context import AwsContext, members


@rule("aws.name-read-as-resource-name")
def name_read_as_resource_name(ctx: AwsContext) -> None:
    """A create's ``Name`` (CreateLoadBalancer, CreateTargetGroup) that the read shape does not
    have is the read's ``<Resource>Name`` (``LoadBalancerName``, ``TargetGroupName``) when it
    has that: the same name, so it is compared, and found by, as read."""
    rid = source("aws.name-read-as-resource-name")
    for resource in ctx.resources():
        f = resource.fields.get("Name")
        if f is None or resource.shape is None or f.get("read_name"):
            continue
        read = members(ctx.model.shape_for(resource.shape))
        for candidate in (f"{resource.api_name}Name", f"{resource.shape}Name"):
            if "Name" not in read and candidate in read:
                f.set("read_name", candidate, rid)
                f.set("write_only", False, rid)
                break

"""A second way to create a resource, chosen by which input is set: ImportKeyPair.

EC2 makes a key pair two ways: ``CreateKeyPair`` (AWS generates the key and hands the private
half out once) or ``ImportKeyPair`` (the caller's ``PublicKeyMaterial``). Both answer with the
same identity (``KeyPairId``) and the resource reads the same afterwards; which one a task means
is said by whether it sets the input only the import takes, as kOps' SSHKey task does.
"""

from __future__ import annotations

import dataclasses

from codegen.annotate.draft import FieldDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.aws.rules.context import AwsContext, documentation_text, split_operation

ALTERNATIVE_VERBS = ("Import",)


@rule("aws.alternative-create-by-input")
def alternative_create_by_input(ctx: AwsContext) -> None:
    """``Import<R>`` beside a resource's ``Create<R>``, answering with the same id member and
    requiring exactly one input the create does not take, is the create used when that input is
    set; the input becomes a create-only field that reads never return."""
    rid = source("aws.alternative-create-by-input")
    for resource in ctx.resources():
        create = resource.create
        if create is None or not create.id_member:
            continue
        for name in ctx.operation_names:
            verb, noun = split_operation(name)
            if verb not in ALTERNATIVE_VERBS or noun != resource.api_name:
                continue
            own = ctx.input_members(create.name)
            extra = [m for m in ctx.required_inputs(name) if m not in own]
            if len(extra) != 1 or create.id_member not in ctx.output_members(name):
                continue
            member = extra[0]
            shape = ctx.input_members(name)[member]
            f = FieldDraft(member, ctx.field_type(shape), documentation_text(shape), in_create=True)
            f.set("mutability", Mutability.CREATE_ONLY, rid)
            f.set("write_only", True, rid)
            f.provenance["name"] = rid
            resource.fields.setdefault(member, f)
            alternatives = (*create.alternatives, (member, name))
            resource.set("create", dataclasses.replace(create, alternatives=alternatives), rid)

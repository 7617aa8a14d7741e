"""The AWS side of the views: how an AWS resource's fields are named on its task and how its
calls are written into its spec literal (botocore operation names, EC2-style filters, ids that
go in as members named differently or as lists)."""

from __future__ import annotations

from functools import cached_property

from botocore import xform_name

from codegen.model import Operation
from codegen.naming import PythonIdentifier, class_name
from codegen.providers.aws.shapes import aws
from codegen.render.views import Argument, FieldView, ResourceView, arguments

ID_SUFFIXES = ("Ids", "Arns", "ARNs", "Id", "Arn")  # longest first: the stem drops one


class AwsFieldView(FieldView):
    """AWS fields hold another resource by its id or ARN (``VpcId``); the task attribute is
    named after what it holds (``vpc``)."""

    @cached_property
    def task_reference(self) -> PythonIdentifier | None:
        """A rendered resource's task, for fields that hold ids; a ``…Name`` stays a string."""
        ref = self.field.references
        if ref and ref in self.generated and self.field.name.endswith(ID_SUFFIXES):
            return class_name(ref)
        return None

    @cached_property
    def _attr(self) -> PythonIdentifier:
        if self.is_tags or not self.task_reference:
            return PythonIdentifier.from_api(self.field.name)
        stem = self.field.name
        for suffix in ID_SUFFIXES:
            if stem.endswith(suffix):
                stem = stem[: -len(suffix)]
                break
        plural = self.field.type.kind == "list"
        same = [f for f in self.resource.fields if f.references == self.field.references and f.name.endswith(ID_SUFFIXES)]
        base = self.field.references if len(same) == 1 and self.field.references else stem
        return PythonIdentifier.from_api(base + ("s" if plural and not base.endswith("s") else ""))

    @property
    def filter_name(self) -> str | None:
        """EC2-style reads select by filters named like the member, kebab-cased (``vpc-id``,
        ``group-name``); only the members a find selects by need one."""
        ident = self.resource.identity
        read = self.resource.operations.read
        if read is None or aws(read).filters_member is None or self.field.name not in (*ident.natural, *ident.parent):
            return None
        return xform_name(self.field.name, "-")


class AwsResourceView(ResourceView):
    """An AWS resource as the templates print it."""

    field_view = AwsFieldView

    def read_note(self, op: Operation) -> str:
        nested = aws(op).nested_member
        return f" (inside {nested})" if nested else ""

    def read_arguments(self) -> list[Argument] | None:
        op = self.resource.operations.read
        if op is None:
            return None
        call = aws(op)
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("output_member", op.output_member),
            ("output_is_list", op.output_is_list),
            ("id_filter", op.id_filter),
            ("id_filter_is_list", call.id_filter_is_list),
            ("filters_member", call.filters_member),
            ("natural_filter", op.natural_filter),
            ("nested_member", call.nested_member),
            ("required", tuple(self._read_required(op))),
        ]
        return arguments(values)

    def _read_required(self, op: Operation) -> list[str]:
        # Get-style reads (GetRole) are called with their identity members from the state
        if op.id_filter and op.id_filter in self.resource.identity.primary and len(self.resource.identity.primary) > 1:
            return list(self.resource.identity.primary)
        return []

    def create_arguments(self) -> list[Argument] | None:
        op = self.resource.operations.create
        if op is None:
            return None
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("output_member", op.output_member),
            ("output_is_list", op.output_is_list),
            ("id_member", op.id_member),
            ("idempotency_token", op.idempotency_token),
        ]
        if op.returned_once:
            values.append(("returned_once", op.returned_once))
        return arguments(values)

    def call_arguments(self, op: Operation) -> list[Argument]:
        call = aws(op)
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("identity", call.identity_pairs),
            ("one_field_per_call", call.one_field_per_call),
            ("list_members", call.list_members),
        ]
        return arguments([(k, v) for k, v in values if v not in (False, ())])

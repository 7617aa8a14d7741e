"""The AWS side of the views: how an AWS resource's fields are named on its task and how its
calls are written into its spec literal (botocore operation names, EC2-style filters, ids that
go in as members named differently or as lists)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import cached_property

from codegen.model import Field, FieldType, Operation
from codegen.naming import PythonIdentifier, class_name
from codegen.providers.aws.shapes import AwsFieldShape, AwsTagShape, aws, aws_field, aws_tags
from codegen.render.views import TAGS_SPEC_REQUIRED, Argument, FieldView, ResourceView, arguments

ID_SUFFIXES = ("Ids", "Arns", "ARNs", "Id", "Arn")  # longest first: the stem drops one
# tag facts TagsSpec takes in its own slots (tag_call_facts), and one it does not take at all
_TAGS_SPEC_SLOTS = (*TAGS_SPEC_REQUIRED, "untag_member")


class AwsFieldView(FieldView):
    """AWS fields hold another resource by its id or ARN (``VpcId``); the task attribute is
    named after what it holds (``vpc``). A ``{"Value": x}`` structure is x to the task."""

    @staticmethod
    def unwrap(t: FieldType) -> FieldType | None:
        """AttributeBooleanValue-style {"Value": x} structures are x to the task."""
        if t.kind == "structure" and [n for n, _ in t.members] == ["Value"]:
            return t.members[0][1]
        return None

    field_shape = AwsFieldShape

    def call_facts(self) -> Mapping[str, object]:
        """The AWS facts as recorded (:class:`AwsFieldShape`), and what attribute calls take in
        another form: the separate read of a field asked for by attribute, the ``{"Value": v}``
        wrapper also where only the field's own type shows it; the separate read of a membership
        list (a target group's targets, by DescribeTargetHealth)."""
        facts = dict(super().call_facts())
        f = self.field
        if facts.get("read_attribute") or (f.read_operation and f.update_kind == "add_remove"):
            facts["read_operation"] = f.read_operation
        if not facts.get("value_wrapper") and self.unwrap(self.field.type):
            facts["value_wrapper"] = "Value"
        return facts

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
        same = [
            f
            for f in self.resource.fields
            if f.references == self.field.references and f.name.endswith(ID_SUFFIXES)
        ]
        base = self.field.references if len(same) == 1 and self.field.references else stem
        short = PythonIdentifier.from_api(base + ("s" if plural and not base.endswith("s") else ""))
        if short not in self._taken_by_others(same):
            return short
        return PythonIdentifier.from_api(self.field.name)

    def _taken_by_others(self, same_reference: list[Field]) -> set[str]:
        """Names another field holds or shortens to: ``SecurityGroups`` beside ``SecurityGroupIds``,
        ``IpamArn`` beside ``IpamId`` (the ``…Id`` field keeps the short name, the others their
        own)."""
        others = {
            str(PythonIdentifier.from_api(f.name))
            for f in self.resource.fields
            if f is not self.field
        }
        if not self.field.name.endswith(("Id", "Ids")):
            others |= {
                str(
                    PythonIdentifier.from_api(
                        f.name[: -len("Id")]
                        if f.name.endswith("Id")
                        else f.name[: -len("Ids")] + "s"
                    )
                )
                for f in same_reference
                if f is not self.field and f.name.endswith(("Id", "Ids"))
            }
        return others

    @property
    def filter_name(self) -> str | None:
        """The filter an EC2-style read selects this member by (aws.documented-filters); only
        the members a find selects by need one."""
        ident = self.resource.identity
        read = self.resource.operations.read
        if (
            read is None
            or aws(read).filters_member is None
            or self.field.name not in (*ident.natural, *ident.parent)
        ):
            return None
        return aws_field(self.field).filter_name


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
        if op.natural_filter and not call.natural_filter_is_list:
            values.append(("natural_filter_is_list", False))
        if call.wrapped_member:
            values.append(("wrapped_member", call.wrapped_member))
        if call.selected_by:
            values.append(("selected_by", call.selected_by))
        return arguments(values)

    def listing_arguments(self) -> list[Argument] | None:
        """``ReadSpec`` of the list that finds by the natural key when the read selects only by
        id (ListHostedZonesByName ``DNSName`` beside GetHostedZone ``Id``); None otherwise."""
        read, listing = self.resource.operations.read, self.resource.operations.list
        if read is None or listing is None or read.natural_filter or not listing.natural_filter:
            return None
        call = aws(listing)
        return arguments(
            [
                ("operation", listing.name),
                ("output_member", listing.output_member),
                ("output_is_list", listing.output_is_list),
                ("id_filter", None),
                ("id_filter_is_list", False),
                ("filters_member", None),
                ("natural_filter", listing.natural_filter),
                ("nested_member", None),
                ("natural_filter_is_list", call.natural_filter_is_list),
            ]
        )

    def change_batch_arguments(self) -> list[Argument] | None:
        """``ChangeBatchSpec``: how runtime/aws/change_batch.py writes and finds an item of its
        parent's change batch (a Route 53 record set)."""
        b = self.resource.change_batch
        if b is None:
            return None
        return arguments(
            [
                ("operation", b.operation),
                ("batch_member", b.batch_member),
                ("changes_member", b.changes_member),
                ("action_member", b.action_member),
                ("item_member", b.item_member),
                ("create_action", b.create_action),
                ("upsert_action", b.upsert_action),
                ("delete_action", b.delete_action),
                ("parent_member", b.parent_member),
                ("start", b.start),
            ]
        )

    def _read_required(self, op: Operation) -> list[str]:
        # Get-style reads (GetRole) are called with their identity members from the state
        if (
            op.id_filter
            and op.id_filter in self.resource.identity.primary
            and len(self.resource.identity.primary) > 1
        ):
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
        if op.token_read:
            values += [("token_read", op.token_read), ("token_taken", op.token_taken)]
        if op.returned_once:
            values.append(("returned_once", op.returned_once))
        if op.alternatives:
            values.append(("alternatives", op.alternatives))
        return arguments(values)

    def call_arguments(self, op: Operation) -> list[Argument]:
        call = aws(op)
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("identity", call.identity_pairs),
            ("one_field_per_call", call.one_field_per_call),
            ("list_members", call.list_members),
            ("fixed", call.fixed_members),
        ]
        # identity has no default in CallSpec: a call that names nothing (an account-wide
        # DeleteSpotDatafeedSubscription) still passes identity=()
        return arguments([(k, v) for k, v in values if k == "identity" or v not in (False, ())])

    def tags_arguments(self) -> list[Argument] | None:
        """The shared tag facts, and how AWS tag calls carry the tags where that is not EC2's
        list of {Key, Value} under ``Tags`` (the variant's facts that differ from its defaults)."""
        values = super().tags_arguments()
        t = self.resource.tags
        if values is None or t is None:
            return values
        given, default = dataclasses.asdict(aws_tags(t)), dataclasses.asdict(AwsTagShape())
        facts = [(k, v) for k, v in given.items() if k not in _TAGS_SPEC_SLOTS and v != default[k]]
        return values + arguments(facts)

    def tag_call_facts(self) -> Mapping[str, object]:
        """How the tag calls name the resource: EC2's TagSpecifications type, a list or ARN
        selector (printed where ``TagsSpec`` takes them, whatever their value)."""
        t = self.resource.tags
        facts = dataclasses.asdict(aws_tags(t) if t is not None else AwsTagShape())
        return {k: facts[k] for k in TAGS_SPEC_REQUIRED}

    def versioning_arguments(self) -> list[Argument] | None:
        """``VersionSpec``: the calls runtime/aws/versions.py makes to change a versioned resource
        (a new version, then the default moved) and to read its default version."""
        v = self.resource.versioning
        if v is None:
            return None
        values: list[tuple[str, object]] = [
            ("create_operation", v.create_operation),
            ("answer_member", v.answer_member),
            ("number_member", v.number_member),
            ("read_operation", v.read_operation),
            ("read_output", v.read_output),
            ("versions_member", v.versions_member),
            ("default_number", v.default_number),
            ("default_operation", v.default_operation),
            ("default_member", v.default_member),
            ("fields", v.fields),
        ]
        return arguments(values)

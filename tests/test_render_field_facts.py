"""A field's provider facts (``Field.call``) reach its ``FieldSpec`` literal only through its
provider's field view, in FieldSpec's order; the neutral view knows none of them (issue 9)."""

from __future__ import annotations

import ast

import pytest

from codegen.model import Field, FieldType, Identity, Mutability, Operations, Resource, Service
from codegen.providers.aws.shapes import AwsFieldShape
from codegen.providers.aws.views import AwsResourceView
from codegen.providers.gcp.shapes import GcpFieldShape
from codegen.providers.gcp.views import GcpResourceView
from codegen.render.views import FieldView, ResourceView

VALUE_OF_BOOL = FieldType("structure", members=(("Value", FieldType("boolean")),))


def _view(view_class: type[ResourceView], provider: str, f: Field) -> FieldView:
    resource = Resource("Thing", "Thing", None, Operations(), Identity(primary=("ThingId",)), (f,))
    view = view_class(resource, Service(provider, "svc", "v1", (resource,)), frozenset())
    return view.field_view(f, resource, frozenset())


def _spec(view: FieldView) -> dict[str, object]:
    """The FieldSpec keywords as printed, in order, with their values."""
    out: dict[str, object] = {}
    for name, literal in view.spec_arguments():
        text = str(literal)
        try:
            out[str(name)] = ast.literal_eval(text)
        except ValueError:
            out[str(name)] = text
    return out


def test_gcp_facts_print_in_fieldspec_order() -> None:
    f = Field("size", FieldType("integer"), mutability=Mutability.MUTABLE, update_operation="compute.disks.resize",
              references="Address", call=GcpFieldShape(update_param=True, reference_member='"""address'))
    spec = _spec(_view(GcpResourceView, "gcp", f))
    keys = list(spec)
    assert spec["update_param"] is True and spec["reference_member"] == '"""address'
    assert keys.index("update_operation") < keys.index("update_param") < keys.index("references") < keys.index("reference_member")
    assert "value_wrapper" not in spec and "read_attribute" not in spec


def test_aws_facts_and_the_value_wrapper_belong_to_the_aws_view() -> None:
    f = Field("EnableDnsHostnames", VALUE_OF_BOOL, mutability=Mutability.MUTABLE, read_operation="DescribeVpcAttribute",
              update_operation="ModifyVpcAttribute", call=AwsFieldShape(read_attribute="enableDnsHostnames"))
    aws = _view(AwsResourceView, "aws", f)
    spec = _spec(aws)
    assert (spec["read_operation"], spec["read_attribute"], spec["value_wrapper"]) == (
        "DescribeVpcAttribute", "enableDnsHostnames", "Value")  # the wrapper seen in the type itself
    assert str(aws.annotation) == "bool | None"  # {"Value": bool} is a bool to the task
    # the same field seen by a view without AWS's facts: no attribute read, the structure as is
    neutral = _view(GcpResourceView, "gcp", Field(f.name, f.type, mutability=Mutability.MUTABLE, update_operation="x"))
    assert "value_wrapper" not in _spec(neutral) and str(neutral.annotation) == "dict[str, Any] | None"


def test_a_view_refuses_another_providers_field_facts() -> None:
    f = Field("size", FieldType("integer"), call=GcpFieldShape(update_param=True))
    with pytest.raises(TypeError, match="field size carries gcp call facts, not aws"):
        _view(AwsResourceView, "aws", f).spec_arguments()

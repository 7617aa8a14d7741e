"""The spec literal follows the runtime's ``FieldSpec`` itself (issue 21, item 4): the keywords,
their order and their defaults are read from the class's source under templates/runtime, and
agree with the class Python builds from it; a keyword it does not take is refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from codegen.errors import TasklayerError
from codegen.model import Field, FieldType, Identity, Mutability, Operations, Resource, Service
from codegen.providers.aws.views import AwsResourceView
from codegen.render.contract import SpecType, runtime_type

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"


def test_the_read_type_is_the_runtimes_field_spec() -> None:
    from tasklayer_tasks.runtime.contract.spec import FieldSpec

    spec = runtime_type(TEMPLATES)
    declared = dataclasses.fields(FieldSpec)
    assert spec.keywords == tuple(f.name for f in declared)
    assert spec.defaults == {f.name: f.default for f in declared if f.default is not dataclasses.MISSING}
    assert spec.required == ("name", "attr", "mutability")


def _field_view(spec: SpecType):  # type: ignore[no-untyped-def]
    f = Field("CidrBlock", FieldType("string"), mutability=Mutability.CREATE_ONLY, in_create=True)
    resource = Resource("Vpc", "Vpc", None, Operations(), Identity(primary=("VpcId",)), (f,))
    view = AwsResourceView(resource, Service("aws", "ec2", "v1", (resource,)), frozenset(), spec)
    return view.fields[0]


def test_the_literal_gives_keywords_in_the_types_order_and_leaves_defaults_out() -> None:
    spec = runtime_type(TEMPLATES)
    printed = [str(k) for k, _ in _field_view(spec).spec_arguments()]
    assert printed == [k for k in spec.keywords if k in printed]  # FieldSpec's order
    assert printed[:3] == ["name", "attr", "mutability"] and "in_create" in printed
    assert "write_only" not in printed  # False is FieldSpec's default


def test_a_keyword_the_type_does_not_take_is_refused() -> None:
    spec = runtime_type(TEMPLATES)
    renamed = dataclasses.replace(spec, keywords=tuple(k for k in spec.keywords if k != "in_create"))
    with pytest.raises(ValueError, match="takes no keywords \\['in_create'\\]"):
        _field_view(renamed).spec_arguments()


def test_a_runtime_without_the_type_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "spec.py").write_text("class Other:\n    pass\n")
    with pytest.raises(TasklayerError, match="declares no class FieldSpec"):
        runtime_type(tmp_path)

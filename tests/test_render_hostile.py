"""Names and documentation from a schema never become executable code, end to end: a hostile
toy model is annotated, rendered and formatted, and the output only carries them as data."""

from __future__ import annotations

import ast
import copy
import dataclasses
from pathlib import Path

from botocore.model import ServiceModel

from codegen.providers.aws.provider import PROVIDER as AWS
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import AwsFieldShape
from codegen.render.formatting import format_python
from codegen.render.package import PackageInfo, Selection, render_package
from tests.toy_model import TOY

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
PACKAGE = PackageInfo(version="0.1.0", botocore_floor="1.43.11")  # what the pyproject declares is not judged here
PAYLOAD = '"""\nimport os; os.system("echo pwned")\n"""'


def hostile_model() -> ServiceModel:
    model = copy.deepcopy(TOY)
    shapes = model["shapes"]
    members = shapes["CreateWidgetRequest"]["members"]
    members["Size"]["documentation"] = f"<p>The size. {PAYLOAD} \\ trailing backslash \\</p>"
    members["Class"] = {"shape": "String", "documentation": "<p>A member named like a keyword.</p>"}
    members["Type"] = {"shape": "String", "documentation": "<p>A member named like a builtin.</p>"}
    shapes["Widget"]["members"]["Class"] = {"shape": "String"}
    shapes["ResourceType"]["enum"] = ["widget", "x'); import os; ('"]
    return ServiceModel(model, service_name="toy")


def test_hostile_schema_text_stays_data() -> None:
    _, draft = annotate_model(hostile_model(), service="toy", api_version="2020-01-01")
    service = draft.freeze()
    files = format_python(render_package([Selection(service, ("Widget",), AWS)], TEMPLATES, PACKAGE))
    task = files["tasklayer_tasks/aws/toy/widget.py"]
    tree = ast.parse(task)  # valid Python
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not any(getattr(n, "module", "") == "os" or any(a.name == "os" for a in n.names) for n in imports)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "system"]
    assert calls == []
    widget = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Widget")
    fields = [n.target.id for n in widget.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    assert "class_" in fields and "type_" in fields
    docs = [n.value.value for n in widget.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)]
    assert any('os.system("echo pwned")' in d for d in docs)  # kept as text, inside a docstring
    for path, source in files.items():
        if path.endswith(".py"):
            compile(source, path, "exec")


def _spec_keywords(source: str) -> dict[str, list[object]]:
    """Every keyword argument of every call in ``source``, evaluated as a literal where it is one."""
    found: dict[str, list[object]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                try:
                    value: object = ast.literal_eval(kw.value)
                except ValueError:
                    value = ast.unparse(kw.value)
                found.setdefault(kw.arg or "", []).append(value)
    return found


def test_safety_and_provenance_values_reach_code_only_as_literals() -> None:
    """The values the safety rules and the CLI add (a create's returned-once members, update
    order, secret paths, attribute wrappers and names, the owner parent, the SDK a schema was pinned from)
    are schema or input text too: each arrives in the output as data, whatever it holds."""
    _, draft = annotate_model(hostile_model(), service="toy", api_version="2020-01-01")
    service = draft.freeze()
    widget = service.resource("Widget")
    create = widget.operations.create
    assert create is not None
    fields = tuple(
        dataclasses.replace(
            f, after=(PAYLOAD,), sensitive_paths=(PAYLOAD,), call=AwsFieldShape(value_wrapper=PAYLOAD, read_attribute=PAYLOAD)
        )
        if f.name == "Size" else f
        for f in widget.fields
    )
    widget = dataclasses.replace(
        widget,
        fields=fields,
        operations=dataclasses.replace(widget.operations, create=dataclasses.replace(create, returned_once=(PAYLOAD,))),
    )
    service = dataclasses.replace(service, resources=tuple(widget if r.name == "Widget" else r for r in service.resources))
    pinned_from = 'botocore 1.0"""; import os; """'
    files = format_python(render_package([Selection(service, ("Widget", "WidgetAssociation"), AWS, pinned_from)], TEMPLATES, PACKAGE))

    core = files["tasklayer_tasks/aws/toy/core/widget.py"]
    keywords = _spec_keywords(core)
    for name in ("after", "sensitive_paths", "returned_once"):
        assert keywords[name] == [(PAYLOAD,)], name
    assert keywords["read_attribute"] == [PAYLOAD] and PAYLOAD in keywords["value_wrapper"]
    association = files["tasklayer_tasks/aws/toy/core/widget_association.py"]
    assert _spec_keywords(association)["owner_parent"] == ["ParentSpec(field='WidgetId', spec=WIDGET_SPEC)"]
    assert "from .widget import SPEC as WIDGET_SPEC" in association
    for path, source in files.items():
        # what the schemas reach; the runtime and testing helpers are copied verbatim, not rendered
        if path.endswith(".py") and not path.startswith(("tasklayer_tasks/runtime/", "tasklayer_tasks/testing/")):
            imported = {a.name for n in ast.walk(ast.parse(source, path)) if isinstance(n, (ast.Import, ast.ImportFrom))
                        for a in n.names}
            assert "os" not in imported, path
    task = ast.parse(files["tasklayer_tasks/aws/toy/widget.py"])
    assert pinned_from in (ast.get_docstring(task) or "")  # the header says it, as text

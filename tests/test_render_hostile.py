"""Names and documentation from a schema never become executable code, end to end: a hostile
toy model is annotated, rendered and formatted, and the output only carries them as data."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

from codegen.annotate.aws.run import annotate_model
from codegen.render.formatting import format_python
from codegen.render.package import Selection, render_package
from tests.toy_model import TOY

from botocore.model import ServiceModel

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
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
    files = format_python(render_package([Selection(service, ("Widget",))], TEMPLATES))
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

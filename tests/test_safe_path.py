"""The one safe path into code is checked, not hoped for: the environment refuses raw text,
``Code`` templates are constants of the generator's own source, the lists of runtime names the
collision checks use cover what the runtime and the generated modules really define, and the
last gate catches shadowing and unparsable output."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import jinja2
import pytest

from codegen.errors import TasklayerError
from codegen.naming import (
    Code,
    Docstring,
    PythonIdentifier,
    PythonLiteral,
    python_literal,
    safe_docstring,
)
from codegen.render.env import make_environment, render_template
from codegen.render.names import MODULE_NAMES, RUNTIME_TASK_NAMES
from codegen.render.verify import check_modules

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "templates" / "runtime"
GENERATED = ROOT / "generated" / "tasklayer_tasks"


@pytest.fixture()
def env(tmp_path: Path) -> jinja2.Environment:
    (tmp_path / "t.py.jinja").write_text("x = {{ value }}\n")
    (tmp_path / "doc.py.jinja").write_text('"""{{ value | docstring }}"""\n')
    return make_environment(tmp_path)


@pytest.mark.parametrize("value", ["os.system('x')", 5, None, ["a"]])
def test_environment_refuses_anything_but_safe_types(env: jinja2.Environment, value: object) -> None:
    with pytest.raises(TasklayerError) as err:
        render_template(env, "t.py.jinja", value=value)
    assert "raw" in err.value.reason and err.value.pointer == "line 1"


def test_environment_prints_safe_types(env: jinja2.Environment) -> None:
    assert render_template(env, "t.py.jinja", value=python_literal("a'b")) == "x = \"a'b\"\n"
    assert render_template(env, "t.py.jinja", value=PythonIdentifier.from_api("Class")) == "x = class_\n"
    assert render_template(env, "doc.py.jinja", value='"""') == '"""\\"\\"\\""""\n'


def test_filters_refuse_converted_values(env: jinja2.Environment) -> None:
    with pytest.raises(TasklayerError):
        render_template(env, "doc.py.jinja", value=safe_docstring("twice"))


def test_safe_types_are_made_only_by_their_converters() -> None:
    for kind in (PythonLiteral, Docstring):
        with pytest.raises(TypeError):
            kind("1; import os")
    with pytest.raises(ValueError):
        PythonIdentifier("a b")
    with pytest.raises(TypeError):
        Code("list[{}]", "x); import os; (")  # a raw str in a slot
    with pytest.raises(TypeError):
        Code("{}", safe_docstring("prose is not code"))
    assert Code("list[{}]", PythonIdentifier("Vpc")) == "list[Vpc]"


def _code_calls(tree: ast.AST) -> list[ast.Call]:
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "Code") or (
                isinstance(func, ast.Attribute) and func.attr == "listing" and isinstance(func.value, ast.Name)
                and func.value.id == "Code"
            ):
                calls.append(node)
    return calls


def test_code_templates_are_constants_of_the_generator() -> None:
    """Schema text can reach ``Code`` only through its checked slots, never its template."""
    checked = 0
    for path in sorted((ROOT / "codegen").rglob("*.py")):
        for call in _code_calls(ast.parse(path.read_text(), filename=str(path))):
            first = call.args[0] if call.args else None
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), f"{where}: template is not a constant"
            checked += 1
    assert checked > 20  # the views, clouds and package really compose code this way


def _instance_attributes(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            # a method's own (self.x = ...), or a function's on the task (task.x = ...)
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "task"):
                names.add(node.attr)
    return names


def test_runtime_task_names_cover_the_runtime() -> None:
    from tasklayer_tasks.runtime.kops.task import Task
    from tasklayer_tasks.runtime.wiring.aws import AwsTask
    from tasklayer_tasks.runtime.wiring.gcp import GcpTask

    defined: set[str] = set()
    for cls in (Task, AwsTask, GcpTask):
        defined |= {n for n in dir(cls) if not n.startswith("__")}
        defined |= {f.name for f in dataclasses.fields(cls)}
        defined |= set(cls.__annotations__)
    for module in ("kops/task.py", "kops/translate.py", "kops/cloud.py", "wiring/aws.py", "wiring/gcp.py"):
        defined |= _instance_attributes(RUNTIME / module)
    missing = defined - RUNTIME_TASK_NAMES
    assert not missing, f"add to codegen/render/names.py RUNTIME_TASK_NAMES: {sorted(missing)}"


def test_module_names_cover_what_generated_modules_import() -> None:
    imported: set[str] = set()
    for path in GENERATED.glob("*/*/**/*.py"):
        if path.relative_to(GENERATED).parts[0] in ("runtime", "testing"):
            continue  # the runtime's own modules, not generated ones
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or 0) > 0 and node.module and "runtime" not in node.module:
                continue  # the service's own modules: its resources' classes
            if isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", "") != "__future__":
                imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, ast.Assign) and node in tree.body:
                imported |= {t.id for t in node.targets if isinstance(t, ast.Name) and t.id.isupper()}
    assert imported, "no generated modules found"
    missing = imported - MODULE_NAMES
    assert not missing, f"add to codegen/render/names.py MODULE_NAMES: {sorted(missing)}"


def test_last_gate_refuses_shadowing_and_unparsable_output() -> None:
    shadowed = "from .runtime.kops.task import Task\n\n\nclass Task:\n    pass\n"
    with pytest.raises(TasklayerError) as err:
        check_modules({"pkg/task.py": shadowed})
    assert err.value.file == "pkg/task.py" and "'Task'" in err.value.reason and "lines 1 and 4" in err.value.reason
    with pytest.raises(TasklayerError) as err:
        check_modules({"pkg/broken.py": 'x = """\n'})
    assert err.value.file == "pkg/broken.py"
    fine = {"pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nA = 1\n", "x.json": "{"}
    assert check_modules(fine) == fine

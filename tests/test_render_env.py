"""The strict Jinja2 environment and black formatting of the rendered batch."""

from __future__ import annotations

import ast
from pathlib import Path

import jinja2
import pytest

from codegen.errors import TasklayerError
from codegen.render import format_python, make_environment, render_template


@pytest.fixture
def env(tmp_path: Path) -> jinja2.Environment:
    templates = {
        "missing.py.jinja": "x = 1\ny = {{ nowhere }}\n",
        "broken.py.jinja": "a = 1\n{% if %}\n",
        "outer.py.jinja": "# outer\n{% include 'missing.py.jinja' %}\n",
        "module.py.jinja": (
            'class {{ name|classname }}:\n    """{{ doc|docstring }}"""\n\n'
            "    {{ name|snake }}: dict = {{ value|repr }}\n"
            "{% for k in keys %}\n    {{ k|snake }} = {{ k|repr }}\n{% endfor %}\n"
        ),
    }
    for name, text in templates.items():
        (tmp_path / name).write_text(text)
    return make_environment(tmp_path)


def test_undefined_names_the_template_and_line(env: jinja2.Environment, tmp_path: Path) -> None:
    with pytest.raises(TasklayerError) as err:
        render_template(env, "missing.py.jinja")
    assert err.value.file == str(tmp_path / "missing.py.jinja")
    assert err.value.pointer == "line 2"
    assert "nowhere" in err.value.reason


def test_error_in_an_included_template_names_that_template(env: jinja2.Environment) -> None:
    with pytest.raises(TasklayerError) as err:
        render_template(env, "outer.py.jinja")
    assert str(err.value.file).endswith("missing.py.jinja")


def test_syntax_error_names_the_template_and_line(env: jinja2.Environment) -> None:
    with pytest.raises(TasklayerError) as err:
        render_template(env, "broken.py.jinja")
    assert str(err.value.file).endswith("broken.py.jinja") and err.value.pointer == "line 2"


def test_unknown_template_is_an_error(env: jinja2.Environment) -> None:
    with pytest.raises(TasklayerError, match="nope.jinja"):
        render_template(env, "nope.jinja")


def test_filters_make_schema_values_safe_code(env: jinja2.Environment) -> None:
    source = render_template(
        env,
        "module.py.jinja",
        name="Type",
        doc='Says """ and ends with a backslash \\',
        value={"q": "it's \"quoted\""},
        keys=["Class", "3D"],
    )
    tree = ast.parse(source)
    cls = tree.body[0]
    assert isinstance(cls, ast.ClassDef) and cls.name == "Type"
    assert ast.get_docstring(cls, clean=False) == 'Says """ and ends with a backslash \\'
    # black's preferred quotes (double), except where they would need more escapes
    assert "type_: dict = {\"q\": 'it\\'s \"quoted\"'}" in source
    assert 'class_ = "Class"' in source and '_3_d = "3D"' in source


def test_a_value_without_a_literal_is_an_error_at_its_line(env: jinja2.Environment) -> None:
    with pytest.raises(TasklayerError) as err:
        render_template(env, "module.py.jinja", name="X", doc="", value={1, 2}, keys=[])
    assert str(err.value.file).endswith("module.py.jinja") and err.value.pointer == "line 4"


def test_nothing_nondeterministic_is_reachable(env: jinja2.Environment) -> None:
    assert "random" not in env.filters and "lipsum" not in env.globals
    assert env.undefined is jinja2.StrictUndefined and not env.autoescape
    assert env.keep_trailing_newline and env.trim_blocks and env.lstrip_blocks


def test_format_python_formats_only_python() -> None:
    files = {"a.py": "x = {  'a':1 }\n", "README.md": "x = {  'a':1 }\n"}
    assert format_python(files) == {"a.py": 'x = {"a": 1}\n', "README.md": "x = {  'a':1 }\n"}


def test_format_python_reports_the_broken_file() -> None:
    with pytest.raises(TasklayerError) as err:
        format_python({"ok.py": "x = 1\n", "pkg/bad.py": "def (:\n"})
    assert err.value.file == "pkg/bad.py" and "cannot parse" in err.value.reason.lower()


def test_format_python_in_worker_processes_gives_the_same_bytes() -> None:
    files = {f"m{i}.py": f"def f{i}( a,b ):\n  return {{'k':a,  'v':b}}\n" for i in range(4)}
    files["notes.txt"] = "kept"
    assert format_python(files, workers=2) == format_python(files, workers=1)
    with pytest.raises(TasklayerError, match="m9.py"):
        format_python({**files, "m9.py": "def (:\n"}, workers=2)

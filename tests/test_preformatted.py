"""Statements set aside from black (codegen/render/preformatted.py) come out as black writes them.

The generated tree's own black check (test_golden) is the guarantee over real output; these
tests pin the recogniser's edges against black itself: every shape it accepts formats to the
same bytes with and without the shortcut, and shapes black would rewrite are never accepted.
"""

from __future__ import annotations

import json
from pathlib import Path

import black
import pytest

from codegen.render import formatting
from codegen.render.formatting import (
    KNOWN_CLEAN,
    MODE,
    _black,
    format_python,
    known_clean_record,
    runtime_sources,
)
from codegen.render.preformatted import put_back, set_aside

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "tasklayer_tasks"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

HEAD = '"""Doc."""\n\nfrom x import Call, FieldSpec\n\n'
TAIL = "\n\n\nclass Core:\n    pass\n"


def _module(statement: str) -> str:
    return HEAD + statement + TAIL


ACCEPTED = {
    "exploded calls and tuples": (
        'SPEC = Call(\n    service="ec2",\n    fields=(\n        FieldSpec(\n            name="A",\n'
        '            mutability=M.READ_ONLY,\n        ),\n        FieldSpec(\n            name="B",\n'
        "        ),\n    ),\n    primary=(\"A\",),\n    identity=((\"A\", \"A\"), (\"B\", \"B\")),\n"
        "    updates=(),\n    n=-1,\n    flag=True,\n    arn=None,\n)"
    ),
    "one-item tuple around an exploded call": (
        'SPEC = Call(\n    fields=(\n        FieldSpec(\n            name="A",\n        ),\n    ),\n)'
    ),
    "call with one keyword": 'SPEC = Call(\n    create=Call(\n        operation="X",\n    ),\n)',
    "compact call and list": 'SPEC = Call(\n    owner=Parent(field="F", spec=VPC_SPEC),\n    names=["a", "b"],\n)',
    "string with a single quote": "SPEC = Call(\n    text=\"it's\",\n)",
}

REJECTED = {
    "one-item tuple of a short item": 'SPEC = Call(\n    fields=(\n        "A",\n    ),\n)',
    "empty exploded group": "SPEC = Call(\n    updates=(\n    ),\n)",
    "magic comma in a compact item": 'SPEC = Call(\n    names=["a", "b",],\n)',
    "comma and space before a bracket": 'SPEC = Call(\n    names=("a", "b", ),\n)',
    "single-quoted string": "SPEC = Call(\n    name='a',\n)",
    "escaped string": 'SPEC = Call(\n    name="a\\\\b",\n)',
    "parenthesised single item": 'SPEC = Call(\n    name=("a"),\n)',
    "operator": "SPEC = Call(\n    n=1 + 2,\n)",
    "keyword": "SPEC = Call(\n    n=not x,\n)",
    "over the line length": "SPEC = Call(\n    name=\"" + "a" * 90 + "\",\n)",
    "non-ASCII": 'SPEC = Call(\n    name="é",\n)',
    "fmt pragma": 'SPEC = Call(\n    name="a",\n)  # fmt: skip',
    "missing item comma": 'SPEC = Call(\n    name="a"\n)',
}


@pytest.mark.parametrize("statement", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted_shapes_format_as_black_does(statement: str) -> None:
    source = _module(statement)
    assert set_aside(source, MODE.line_length)[1], "the shape should be set aside"
    assert _black(source) == (black.format_str(source, mode=MODE), None)
    assert black.format_str(source, mode=MODE) == source  # it was black's layout already


@pytest.mark.parametrize("statement", REJECTED.values(), ids=REJECTED.keys())
def test_shapes_black_would_change_are_left_to_black(statement: str) -> None:
    source = _module(statement)
    assert set_aside(source, MODE.line_length)[1] == []
    assert _black(source) == (black.format_str(source, mode=MODE), None)


def test_blank_lines_around_a_set_aside_statement_are_blacks() -> None:
    """The stand-in is the same kind of line: black's blank lines before and after it hold."""
    statement = ACCEPTED["call with one keyword"]
    source = '"""Doc."""\nimport os\n' + statement + "\ndef f():\n    pass\n@dec\nclass C:\n    pass\n"
    assert set_aside(source, MODE.line_length)[1]
    assert _black(source) == (black.format_str(source, mode=MODE), None)


def test_put_back_refuses_a_missing_or_repeated_stand_in() -> None:
    reduced, aside = set_aside(_module(ACCEPTED["call with one keyword"]), MODE.line_length)
    stand_in = aside[0][0]
    assert put_back(reduced.replace(stand_in, "X = 1"), aside) is None
    assert put_back(reduced + "\n" + stand_in + "\n", aside) is None


def test_every_generated_module_formats_the_same_with_the_shortcut() -> None:
    """Over the committed tree (black's own output): the shortcut changes nothing, and it is
    taken for the specs, so the saving is real."""
    modules = sorted(GENERATED.rglob("*.py"))
    aside = 0
    for path in modules:
        text = path.read_text()
        aside += bool(set_aside(text, MODE.line_length)[1])
        assert _black(text) == (text, None), path
    cores = [p for p in modules if p.parent.name == "core" and p.name != "__init__.py"]
    assert aside >= 0.8 * len(cores)


def test_the_known_clean_list_is_the_runtime_as_black_leaves_it() -> None:
    """Every runtime module black leaves unchanged, under this black and mode; nothing else."""
    sources = runtime_sources(TEMPLATES)
    recorded = json.loads(KNOWN_CLEAN.read_text())
    assert recorded == known_clean_record(sources), "refresh it: python -m codegen.render.formatting"
    assert len(recorded["sha256"]) == len(set(sources))


def test_a_listed_source_is_formatted_under_another_black(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The list is black's verdict for one black version and mode; another black gets no shortcut."""
    messy = "x = {  'a':1 }\n"
    record = known_clean_record([])
    listed = tmp_path / "clean.json"
    monkeypatch.setattr(formatting, "KNOWN_CLEAN", listed)
    monkeypatch.setattr(formatting, "_FORMATTED", {})
    listed.write_text(json.dumps({**record, "black": "0.0", "sha256": [formatting._digest(messy)]}))
    assert format_python({"m.py": messy}, workers=1) == {"m.py": 'x = {"a": 1}\n'}
    monkeypatch.setattr(formatting, "_FORMATTED", {})
    listed.write_text(json.dumps({**record, "sha256": [formatting._digest(messy)]}))
    assert format_python({"m.py": messy}, workers=1) == {"m.py": messy}  # the shortcut, taken as recorded

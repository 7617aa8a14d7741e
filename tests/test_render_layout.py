"""The length-dependent line shapes (codegen/render/layout.py) are written as black writes them,
so black leaves modules made of them unchanged (one pass instead of two)."""

from __future__ import annotations

import black
import pytest

from codegen.naming import Code, PythonIdentifier, python_literal
from codegen.render import layout
from codegen.render.formatting import MODE


def _stable(source: str) -> bool:
    return black.format_str(source, mode=MODE) == source


@pytest.mark.parametrize("count", [1, 3, 12])
@pytest.mark.parametrize("indent", [0, 4])
def test_imports_short_and_long(count: int, indent: int) -> None:
    names = [f"SomeRatherLongName{n}" for n in range(count)]
    lines = layout.from_import(Code(".module"), names, indent=indent)
    assert (len(lines) == 1) == (count < 5)
    pad = " " * indent
    body = "".join(f"{pad}{line}\n" for line in lines)
    source = body if not indent else "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n" + body
    assert _stable(source)


@pytest.mark.parametrize("width", [10, 15, 60])
def test_calls_on_one_line_hugged_or_exploded(width: int) -> None:
    arguments = [Code("x.client({})", python_literal("a" * width)), Code("x.retry"),
                 Code("once=x.client({}, sdk_retries=False)", python_literal("b" * (width // 2)))]
    lines = layout.call(Code("return {}", PythonIdentifier("SomeCore")), arguments, indent=8)
    assert len(lines) == {10: 1, 15: 3, 60: 5}[width]
    source = "def f(x):\n    if x:\n" + "".join(f"        {line}\n" for line in lines)
    assert _stable(source)


@pytest.mark.parametrize("count", [2, 20])
def test_all_lists_short_and_long(count: int) -> None:
    lines = layout.string_list(Code("__all__"), [python_literal(f"Name{n}") for n in range(count)])
    assert (len(lines) == 1) == (count == 2)
    assert _stable("".join(f"{line}\n" for line in lines))

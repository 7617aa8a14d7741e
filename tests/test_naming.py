"""Names and values from schemas become safe Python: identifiers, literals, docstrings."""

from __future__ import annotations

import ast
import builtins
import keyword
import math
from enum import Enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.errors import TasklayerError
from codegen.naming import (
    PythonIdentifier,
    UnrepresentableValue,
    class_name,
    module_name,
    python_literal,
    safe_docstring,
)


@pytest.mark.parametrize(
    ("api", "snake", "cls"),
    [
        ("CidrBlock", "cidr_block", "CidrBlock"),
        ("VPCZoneIdentifier", "vpc_zone_identifier", "VpcZoneIdentifier"),
        ("TargetGroupARNs", "target_group_arns", "TargetGroupArns"),
        ("IPv6CidrBlock", "i_pv6_cidr_block", "IPv6CidrBlock"),  # botocore's own answer, kept
        ("ipCidrRange", "ip_cidr_range", "IpCidrRange"),  # discovery camelCase
        ("Type", "type_", "Type"),  # builtin
        ("Id", "id_", "Id"),
        ("Filter", "filter_", "Filter"),
        ("Format", "format_", "Format"),
        ("Property", "property_", "Property"),
        ("class", "class_", "Class"),  # keyword
        ("None", "none", "None_"),
        ("match", "match_", "Match"),  # soft keyword
        ("Exception", "exception", "Exception_"),  # builtin class name
        ("3DSettings", "_3_d_settings", "N3DSettings"),  # leading digit
        ("foo-bar.baz", "foo_bar_baz", "FooBarBaz"),  # characters not allowed in names
        ("__class__", "_class__", "Class"),  # no dunder / name-mangled names
        ("-", "x_", "X"),  # nothing left to name it by
    ],
)
def test_from_api(api: str, snake: str, cls: str) -> None:
    assert module_name(api) == snake
    assert class_name(api) == cls
    assert isinstance(module_name(api), PythonIdentifier)


def test_non_ascii_cannot_alias_a_builtin() -> None:
    # Python NFKC-normalises identifiers: "ｔｙｐｅ" in source *is* `type`.
    name = module_name("ｔｙｐｅ")
    assert name.isascii() and name != "type"


@pytest.mark.parametrize("empty", ["", "   "])
def test_empty_name_is_an_error(empty: str) -> None:
    with pytest.raises(TasklayerError, match="empty"):
        module_name(empty)


def test_constructor_refuses_unsafe_values() -> None:
    assert PythonIdentifier("cidr_block") == "cidr_block"
    for bad in ("type", "class", "1x", "a-b", "__init__", ""):
        with pytest.raises(ValueError):
            PythonIdentifier(bad)


def _assert_safe(name: str) -> None:
    assert name.isidentifier() and name.isascii()
    assert not keyword.iskeyword(name) and not keyword.issoftkeyword(name)
    assert name not in dir(builtins)
    assert PythonIdentifier(name) == name


@given(st.text(min_size=1).filter(str.strip), st.sampled_from(["snake", "class"]))
def test_any_text_becomes_a_safe_identifier(text: str, style: str) -> None:
    _assert_safe(PythonIdentifier.from_api(text, style))  # type: ignore[arg-type]


def _docstring_value(doc: str) -> str | None:
    tree = ast.parse(f'def f():\n    """{safe_docstring(doc)}"""\n')
    return ast.get_docstring(tree.body[0], clean=False)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "doc",
    [
        'Ends a docstring early: """ and then code()\\',
        'quoted "name"',
        '"',
        '""""',
        "C:\\path\\n is not a newline",
        "NUL\x00, tab\t, CR\r, line separator\u2028 stay data",
    ],
)
def test_docstring_escaping_keeps_the_text(doc: str) -> None:
    assert _docstring_value(doc) == doc


def test_docstring_trims_trailing_whitespace() -> None:
    assert safe_docstring("\nfirst   \nsecond\t\n\n") == "first\nsecond"


@given(st.text())
def test_any_docstring_parses_to_its_text(doc: str) -> None:
    expected = "\n".join(line.rstrip() for line in doc.split("\n")).strip("\n")
    assert _docstring_value(doc) == expected


class _Colour(str, Enum):
    RED = "red"


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("it's \"x\"", "'it\\'s \"x\"'"),
        (_Colour.RED, '"red"'),  # an Enum's own repr never reaches code; black's quotes
        (True, "True"),
        (None, "None"),
        ((1,), "(1,)"),
        ({"a": [1.5, (None, False)]}, '{"a": [1.5, (None, False)]}'),
    ],
)
def test_python_literal(value: object, code: str) -> None:
    assert python_literal(value) == code


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_string_literals_read_back_and_are_in_blacks_quotes(text: str) -> None:
    """Written as black writes them, so black has no string to rewrite in generated code."""
    import black

    from codegen.render.formatting import MODE

    code = python_literal(text)
    assert ast.literal_eval(code) == text
    assert black.format_str(f"x = {code}\n", mode=MODE) == f"x = {code}\n"


@pytest.mark.parametrize("value", [{1, 2}, object(), math.nan, [b"bytes"], {"k": math.inf}])
def test_python_literal_refuses_what_has_no_stable_literal(value: object) -> None:
    with pytest.raises(UnrepresentableValue):
        python_literal(value)
    assert issubclass(UnrepresentableValue, TypeError)


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)


@given(_plain)
def test_python_literal_round_trips(value: object) -> None:
    assert ast.literal_eval(python_literal(value)) == value

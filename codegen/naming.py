"""Names and values from schemas, made safe to place into generated Python source.

Schemas are input: a member called ``type``, ``class`` or ``3DSettings``, or documentation
containing ``\"\"\"``, must never become broken or executable code. Everything a template prints
is one of five types, each safe by construction (the render environment refuses anything else,
plain ``str`` included):

- :class:`PythonIdentifier`: a name checked to be a safe identifier;
- :class:`PythonLiteral`: the ``repr()`` of plain data (made by :func:`python_literal`);
- :class:`Docstring`: prose escaped to sit between triple quotes (:func:`safe_docstring`);
- :class:`Code`: source the generator composes from a constant template and safe parts;
- :class:`Markdown`: text escaped for the reference pages (:func:`safe_markdown`,
  :func:`markdown_code`).
"""

from __future__ import annotations

import builtins
import keyword
import math
import re
from collections.abc import Iterable
from typing import Literal

from botocore import xform_name

from codegen.errors import TasklayerError

Style = Literal["snake", "class"]

# Names a generated module or class must not shadow or collide with.
_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
# ASCII only: Python NFKC-normalises non-ASCII identifiers, so "ｔｙｐｅ" would silently be
# ``type`` again; generated code is ASCII anyway.
_NOT_IDENTIFIER_CHAR = re.compile(r"[^A-Za-z0-9_]")
_WORD_SEPARATOR = re.compile(r"[^A-Za-z0-9]+")
_DIGIT_PREFIX = {"snake": "_", "class": "N"}
_LETTER = {"snake": "x", "class": "X"}


def _is_safe(value: str) -> bool:
    return (
        value.isascii()
        and value.isidentifier()
        and value not in _RESERVED
        and not value.startswith("__")
    )


class PythonIdentifier(str):
    """A Python identifier that is valid by construction: never a keyword, soft keyword or
    builtin, never dunder/name-mangled, ASCII only.

    Build one with :meth:`from_api`; the constructor only accepts values that are already safe,
    so holding a ``PythonIdentifier`` is proof the name can go into code as is.
    """

    def __new__(cls, value: str) -> PythonIdentifier:
        if not _is_safe(value):
            raise ValueError(
                f"not a safe Python identifier: {value!r} (use PythonIdentifier.from_api)"
            )
        return super().__new__(cls, value)

    @classmethod
    def from_api(cls, name: str, style: Style = "snake") -> PythonIdentifier:
        """The Python name for an API name: ``CidrBlock`` -> ``cidr_block`` / ``CidrBlock``."""
        if style not in _DIGIT_PREFIX:
            raise ValueError(f"unknown identifier style {style!r}")
        if not name or not name.strip():
            raise TasklayerError(
                "an API name is empty; it cannot become a Python identifier", fragment=repr(name)
            )
        snake = xform_name(name)  # botocore's own rule, so names match boto3's (keep its quirks)
        return cls(_make_safe(snake if style == "snake" else _pascal(snake), style))

    @classmethod
    def key(cls, name: str) -> PythonIdentifier | None:
        """``name`` as it is, when it can be written as a class-body annotation (a TypedDict
        key): ASCII, an identifier, not a keyword, not dunder. Builtin names are fine there.
        None when it cannot (the key then goes into a functional TypedDict as a literal)."""
        ok = (
            name.isascii()
            and name.isidentifier()
            and not keyword.iskeyword(name)
            and not name.startswith("__")
        )
        return str.__new__(cls, name) if ok else None


def _pascal(snake: str) -> str:
    """``vpc_zone_identifier`` -> ``VpcZoneIdentifier``; other separators (``-``, ``.``) split
    too."""
    return "".join(w[:1].upper() + w[1:] for w in _WORD_SEPARATOR.split(snake))


def _make_safe(value: str, style: Style) -> str:
    """Replace what cannot be in an identifier, then step around digits and reserved names."""
    value = _NOT_IDENTIFIER_CHAR.sub("_", value)
    if not value.strip("_"):  # nothing left to name it by ("-", "_")
        value = _LETTER[style] + value
    if value[0].isdigit():
        value = _DIGIT_PREFIX[style] + value
    if value.startswith("__"):  # dunder and class-private (mangled) names mean something else
        value = "_" + value.lstrip("_")
    if value in _RESERVED:
        value += "_"
    return value


def module_name(api_name: str) -> PythonIdentifier:
    """The module (file) name for an API name, e.g. ``LaunchTemplate`` -> ``launch_template``."""
    return PythonIdentifier.from_api(api_name, "snake")


def class_name(api_name: str) -> PythonIdentifier:
    """The class name for an API name, e.g. ``VPCZoneIdentifier`` -> ``VpcZoneIdentifier``."""
    return PythonIdentifier.from_api(api_name, "class")


def safe_docstring(text: str) -> Docstring:
    """``text`` made safe to place between ``\"\"\"`` and ``\"\"\"``; the docstring's value is
    ``text`` with trailing whitespace removed from each line and blank lines trimmed at both ends.

    Backslashes are doubled, runs of three quotes and a final quote are escaped, and characters
    that are not printable (control characters, line separators black or the tokenizer would
    treat as line breaks, NUL) become escapes, so documentation can never end the string early.
    """
    lines = [line.rstrip() for line in text.split("\n")]
    body = "\n".join(lines).strip("\n")
    body = _DOCSTRING_HAZARD.sub(_escape_hazard, body)
    if body.replace("\n", "").isprintable():  # nearly all documentation: nothing to escape
        return str.__new__(Docstring, body)
    escaped = "".join(ch if ch == "\n" or ch.isprintable() else _escape_char(ch) for ch in body)
    return str.__new__(Docstring, escaped)


# A backslash; a run of three or more quotes; a quote at either end (next to the delimiters).
_DOCSTRING_HAZARD = re.compile(r'\\|"{3,}|\A"|"\Z')


def _escape_hazard(match: re.Match[str]) -> str:
    return "\\\\" if match.group() == "\\" else '\\"' * len(match.group())


def _escape_char(ch: str) -> str:
    """``\\x00``, ``\\t``, ``\\u2028``: the escape Python reads back as ``ch``."""
    return ch.encode("unicode_escape").decode("ascii")


class UnrepresentableValue(TypeError):
    """A value that has no Python literal form; raised by :func:`python_literal`."""


def python_literal(value: object) -> PythonLiteral:
    """The Python literal for plain data: str, int, float, bool, None, and tuples, lists and
    dicts of those. Anything else raises :class:`UnrepresentableValue` (a ``TypeError``).

    Subclasses are written as their base type (an ``Enum`` of ``str`` becomes its string), so
    no object's own ``__repr__`` ever reaches generated code. Sets are refused: their order is
    not stable between runs, and output must be byte-identical.
    """
    return _literal(_source(value))


def _source(value: object) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnrepresentableValue(f"{value!r} has no Python literal")
        return float.__repr__(value)
    if isinstance(value, tuple):
        items = [_source(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, list):
        return f"[{', '.join(_source(v) for v in value)}]"
    if isinstance(value, dict):
        pairs = (f"{_source(k)}: {_source(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise UnrepresentableValue(
        f"cannot write a {type(value).__name__} into generated code: {value!r:.80}"
    )


def _string(value: str) -> str:
    """``repr(value)`` in black's preferred quotes: double, unless that needs more escapes
    (black would rewrite ``'ec2'`` as ``"ec2"``; writing it so spares black a second pass)."""
    text = str.__repr__(value)
    if text[0] == '"' or value.count('"') > value.count("'"):
        return text  # already double-quoted, or double quotes would need more escapes
    if "'" not in value:
        return '"' + text[1:-1] + '"'
    # both quotes, no more double than single: black swaps to double quotes, escaping those
    return (
        '"'
        + "".join(
            '\\"' if ch == '"' else ch if ch == "'" else str.__repr__(ch)[1:-1] for ch in value
        )
        + '"'
    )


class PythonLiteral(str):
    """Python source for plain data: only :func:`python_literal` makes one."""

    def __new__(cls, value: object) -> PythonLiteral:
        raise TypeError("PythonLiteral is made by python_literal(value)")


class Docstring(str):
    """Prose escaped to sit between ``\"\"\"`` and ``\"\"\"``: only :func:`safe_docstring` makes
    one."""

    def __new__(cls, value: object) -> Docstring:
        raise TypeError("Docstring is made by safe_docstring(text)")


class Code(str):
    """Python source the generator composes: a constant template whose ``{}`` slots are
    filled only with identifiers, literals and other ``Code`` (a docstring is only safe
    between triple quotes, which a template writes itself).

    The template must be a string constant in the generator's own source (a test walks every
    ``Code(...)`` call to check it); schema text can only arrive through the slots, where
    anything but a safe type is refused.
    """

    def __new__(cls, template: str, *parts: CodePart) -> Code:
        for part in parts:
            if not isinstance(part, CODE_PARTS):
                raise TypeError(
                    f"unsafe value for generated code: {type(part).__name__} {part!r:.80}"
                )
        return super().__new__(cls, template.format(*parts) if parts else template)

    @classmethod
    def listing(cls, separator: str, parts: Iterable[CodePart]) -> Code:
        """``separator`` (a constant) between safe parts: ``Code.listing(", ", names)``."""
        items = list(parts)
        return cls(separator.join("{}" for _ in items), *items)


class Markdown(str):
    """Markdown for the reference pages: only :func:`safe_markdown` (prose) and
    :func:`markdown_code` (a name as a code span) make one."""

    def __new__(cls, value: object) -> Markdown:
        raise TypeError("Markdown is made by safe_markdown(text) or markdown_code(text)")


# What Markdown (and the site's extensions: tables, attr_list) reads as markup inside a line:
# emphasis, code, links and images, HTML, a table's cell separator, an attribute list.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]{}|!#~]")
_HTML_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def safe_markdown(text: str) -> Markdown:
    """``text`` as one line of literal Markdown prose: whitespace (newlines included) collapsed,
    so it can sit in a table cell or a list item; markup characters backslash-escaped and HTML's
    ``& < >`` written as entities, so schema text can neither format, link, nor break a table."""
    return str.__new__(Markdown, _escape_markdown(" ".join(text.split())))


def _escape_markdown(text: str) -> str:
    text = "".join(_HTML_ENTITIES.get(ch, ch) for ch in text)
    return _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), text)


# the inline markup botocore's doc tools write: ``literal``, `text <https://...>`__, *emphasis*
_RST_INLINE = re.compile(
    r"``(?P<code>[^`]+?)``"
    r"|`(?P<text>[^`<]+?)\s*<(?P<url>https?://[^\s<>`|\\]+)>`__?"
    r"|(?<![\w*])\*(?P<em>[^*\s][^*]*?)(?<!\s)\*(?![\w*])"
)


def markdown_from_rst(text: str) -> Markdown:
    """API documentation (botocore writes RST inline markup) as one line of Markdown: a
    ``literal`` becomes a code span, `text <https://...>`__ a link, *emphasis* emphasis; all
    else is escaped as :func:`safe_markdown` escapes it. A link's address is an http(s) URL
    without spaces, angle brackets, backticks, pipes or backslashes, written between ``<>``."""
    line = " ".join(text.split())
    out, at = [], 0
    for m in _RST_INLINE.finditer(line):
        out.append(_escape_markdown(line[at : m.start()]))
        if m["code"] is not None:
            out.append(markdown_code(m["code"]))
        elif m["url"] is not None:
            out.append(f"[{_escape_markdown(m['text'])}](<{m['url']}>)")
        else:
            out.append(f"*{_escape_markdown(m['em'])}*")
        at = m.end()
    out.append(_escape_markdown(line[at:]))
    return str.__new__(Markdown, "".join(out))


def markdown_code(text: str) -> Markdown:
    """``text`` as an inline code span (a member name, an operation, a rule id). A value that a
    code span cannot hold as is (a backtick, a table's ``|``, a line break) is written as
    escaped prose instead: the page stays correct, only plainer."""
    if not text or any(ch in text for ch in "`|\n\r") or text != text.strip():
        return safe_markdown(text)
    return str.__new__(Markdown, f"`{text}`")


CodePart = PythonIdentifier | PythonLiteral | Code
CODE_PARTS = (PythonIdentifier, PythonLiteral, Code)
Safe = PythonIdentifier | PythonLiteral | Docstring | Code | Markdown
SAFE_TYPES = (PythonIdentifier, PythonLiteral, Docstring, Code, Markdown)


def _literal(text: str) -> PythonLiteral:
    return str.__new__(PythonLiteral, text)

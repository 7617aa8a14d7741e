"""black's layout for the few generated line shapes whose layout depends on their length.

black formats every generated module in the end; writing these lines the way black would
leaves it nothing to change, so it makes one pass over the module instead of two (black
re-formats its own output once whenever the first pass changed anything).
"""

from __future__ import annotations

from codegen.naming import Code, PythonIdentifier, PythonLiteral

LINE_LENGTH = 100  # black's line_length for generated code (formatting.MODE)


def from_import(module: Code, names: list[str], indent: int = 0) -> list[Code]:
    """``from module import a, b`` on one line when it fits at ``indent``, else one name a
    line in parentheses with a trailing comma (black always explodes an import it splits)."""
    identifiers = [PythonIdentifier(n) for n in sorted(names)]
    one = Code("from {} import {}", module, Code.listing(", ", identifiers))
    if indent + len(one) <= LINE_LENGTH:
        return [one]
    return [Code("from {} import (", module), *(Code("    {},", n) for n in identifiers), Code(")")]


def call(head: Code, arguments: list[Code], indent: int) -> list[Code]:
    """``head(arguments)`` as black lays it out at ``indent``: one line when it fits; else the
    arguments together on their own line when they fit there; else one argument a line (black
    splits an argument further when even its own line is too long: then black has work left)."""
    joined = Code.listing(", ", arguments)
    one = Code("{}({})", head, joined)
    if indent + len(one) <= LINE_LENGTH:
        return [one]
    if indent + 4 + len(joined) <= LINE_LENGTH:
        return [Code("{}(", head), Code("    {}", joined), Code(")")]
    return [Code("{}(", head), *(Code("    {},", a) for a in arguments), Code(")")]


def string_list(name: Code, values: list[PythonLiteral]) -> list[Code]:
    """``name = [values]`` on one line when it fits, else one value a line (black explodes a
    list it splits, with a trailing comma)."""
    one = Code("{} = [{}]", name, Code.listing(", ", values))
    if len(one) <= LINE_LENGTH:
        return [one]
    return [Code("{} = [", name), *(Code("    {},", v) for v in values), Code("]")]

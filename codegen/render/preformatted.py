"""Top-level data literals that templates already write in black's layout, so black can skip them.

A core module is mostly one statement, ``SPEC = ResourceSpec(...)``: a tree of calls and tuples
whose leaves are short literals. The templates write it the way black writes it (every call
and tuple exploded one item a line, each item ending in a comma; short literals on one line),
and black spent most of a cold ``generate`` re-deriving that layout.

:func:`set_aside` recognises such a statement and checks, line by line, that it is in the one
layout black gives it; only then is it replaced by a one-line stand-in before black runs, and
put back in black's output by :func:`put_back`. Anything outside the narrow shape below is
left in the source, for black to format as before. Why the check is enough:

- black formats each logical line on its own (``transform_line``); the blank lines around it
  come from the line's kind (def, class, decorator, import, comment, flow control, docstring,
  block opener) and the newlines before it, never from what is inside its brackets. The
  stand-in ``NAME = _name`` is the same kind of line as ``NAME = Call(...)`` (an assignment
  whose first leaf is ``NAME``) with the same newlines before and after.
- inside the statement, black explodes a bracket pair one item a line exactly when it has a
  magic trailing comma (a call with a final comma; a tuple of two or more items with one),
  and keeps on one line a line that fits in ``line_length`` and has none. The check demands
  exactly that: each opened call or tuple ends with ``),`` after items that each end in a
  comma (a one-item tuple only around an exploded call, which black explodes the same way);
  each one-line item fits, is plain ASCII, has no trailing comma but a one-tuple's, and uses
  black's spacing and quotes (double-quoted strings without escapes).
- a module with ``fmt:`` or ``yapf:`` pragmas is never touched (they change what black formats).

The test suite runs black itself over every generated module and asserts it changes nothing;
that test is the guarantee, this module only saves the time.
"""

from __future__ import annotations

import keyword
import re

_OPENER = re.compile(r"([A-Za-z_]\w*) = ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\($")
_INNER_OPENER = re.compile(r"( *)(?:([A-Za-z_]\w*)=)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?\($")
_ITEM = re.compile(r"( *)(?:[A-Za-z_]\w*=)?(.+),$")
_TOKEN = re.compile(r'"[^"\\]*"|-?\d+(?:\.\d+)?|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*|, |[()\[\]=,]')
_STAND_IN = "_tasklayer_preformatted_{}"
# ``NAME = Call(`` short enough that black never weighs wrapping the call in parentheses
_SHORT_OPENER = 40
_PRAGMA = re.compile(r"#\s*(?:fmt|yapf)\s*:")


def set_aside(source: str, line_length: int) -> tuple[str, list[tuple[str, str]]]:
    """``source`` with each top-level data literal already in black's layout (for
    ``line_length``) replaced by a one-line stand-in, and the (stand-in line, original text)
    pairs to put back."""
    if _PRAGMA.search(source) or "_tasklayer_preformatted_" in source:
        return source, []
    lines = source.split("\n")
    out: list[str] = []
    aside: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        match = _OPENER.match(lines[i]) if len(lines[i]) <= _SHORT_OPENER else None
        end = _statement_end(lines, i) if match else None
        if match and end is not None and _in_black_layout(lines[i + 1 : end], line_length):
            stand_in = f"{match.group(1)} = {_STAND_IN.format(len(aside))}"
            aside.append((stand_in, "\n".join(lines[i : end + 1])))
            out.append(stand_in)
            i = end + 1
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out), aside


def put_back(formatted: str, aside: list[tuple[str, str]]) -> str | None:
    """black's output with the set-aside statements restored; ``None`` when a stand-in is not
    found exactly once as a whole line (then the caller formats the original source instead)."""
    lines = formatted.split("\n")
    for stand_in, text in aside:
        at = [n for n, line in enumerate(lines) if line == stand_in]
        if len(at) != 1:
            return None
        lines[at[0]] = text
    return "\n".join(lines)


def _statement_end(lines: list[str], start: int) -> int | None:
    """Index of the ``)`` line that closes the top-level statement opened at ``start``."""
    for n in range(start + 1, len(lines)):
        line = lines[n]
        if line == ")":
            return n
        if not line.startswith("    "):  # dedented before closing: not this shape
            return None
    return None


def _in_black_layout(body: list[str], line_length: int) -> bool:
    """Whether the lines between ``NAME = Call(`` and ``)`` are exactly black's layout."""
    # one entry per open bracket: [items so far, exploded items so far, is a tuple]
    stack: list[list[int]] = [[0, 0, 0]]
    for line in body:
        if len(line) > line_length or not line.isascii():
            return False
        depth = len(stack)
        indent = "    " * depth
        if line == "    " * (depth - 1) + ")," and depth > 1:
            items, exploded, is_tuple = stack.pop()
            if items == 0 or (is_tuple and items == 1 and exploded == 0):
                return False  # black would join an empty group or a one-item tuple of a short item
            stack[-1][0] += 1
            stack[-1][1] += 1
            continue
        if len(line) <= len(indent) or not line.startswith(indent) or line[len(indent)] == " ":
            return False
        opener = _INNER_OPENER.fullmatch(line)
        if opener:
            if opener.group(3) is None and opener.group(2) is None:
                return False  # a bare parenthesised item: not a shape the templates write
            stack.append([0, 0, int(opener.group(3) is None)])
            continue
        item = _ITEM.fullmatch(line)
        if item is None or not _compact(item.group(2)):
            return False
        stack[-1][0] += 1
    return len(stack) == 1 and stack[0][0] > 0


def _compact(text: str) -> bool:
    """Whether ``text`` is a literal black leaves on one line as written: names, numbers,
    double-quoted strings without escapes, calls, tuples and lists of those, separated by
    ``", "``, with no trailing comma but a one-tuple's."""
    tokens = _TOKEN.findall(text)
    if "".join(tokens) != text:
        return False
    return _expression(tokens, 0) == len(tokens)


def _expression(tokens: list[str], at: int) -> int:
    """End of the expression starting at ``tokens[at]``, or -1 if it is not one we accept."""
    if at >= len(tokens):
        return -1
    token = tokens[at]
    if token in ("(", "["):
        return _group(tokens, at, call=False)
    if token[0] == '"' or token[0] == "-" or token[0].isdigit():
        return at + 1
    if token[0].isalpha() or token[0] == "_":
        if keyword.iskeyword(token) and token not in ("True", "False", "None"):
            return -1
        if at + 1 < len(tokens) and tokens[at + 1] == "(":
            return _group(tokens, at + 1, call=True)
        return at + 1
    return -1


def _group(tokens: list[str], at: int, call: bool) -> int:
    """End of the bracketed group opening at ``tokens[at]``."""
    close = ")" if tokens[at] == "(" else "]"
    at += 1
    items = 0
    while at < len(tokens) and tokens[at] != close:
        if call and at + 1 < len(tokens) and tokens[at + 1] == "=" and tokens[at][0].isalpha():
            at += 2  # keyword=value
        at = _expression(tokens, at)
        if at < 0 or at >= len(tokens):
            return -1
        items += 1
        if tokens[at] == ", ":
            at += 1
            if at < len(tokens) and tokens[at] == close:
                return -1  # ", )": black would make it a magic trailing comma
        elif tokens[at] == ",":  # a trailing comma: only a one-tuple's is not magic
            if call or close != ")" or items != 1 or at + 1 >= len(tokens) or tokens[at + 1] != ")":
                return -1
            at += 1
        elif tokens[at] != close:
            return -1
    if at >= len(tokens) or (items == 1 and not call and close == ")" and tokens[at - 1] != ","):
        return -1  # unclosed, or a parenthesised single item (black may drop its parens)
    return at + 1

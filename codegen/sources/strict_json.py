"""Strict JSON for every pinned file: UTF-8, no duplicate keys, no NaN or Infinity, and no
nesting deeper than any real schema has, each refusal a :class:`TasklayerError` naming the
file and the JSON pointer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError, json_pointer

# Shapes nest at most ~22 deep in the whole botocore corpus; far deeper is damage, and would
# exhaust the recursion of every walker after this one.
MAX_DEPTH = 100


def decode_json(payload: bytes, file: Path | str) -> Any:
    """Parse one schema file; a decoding problem names the file, line and column."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TasklayerError(
            f"not UTF-8 text (byte {exc.start}): {exc.reason}", file=file
        ) from None
    duplicates: list[tuple[dict[str, Any], str]] = []
    try:
        data = json.loads(
            text,
            object_pairs_hook=lambda pairs: _object(pairs, duplicates),
            parse_constant=_no_constant,
        )
    except RecursionError:
        line, column = _too_deep_at(text)
        raise TasklayerError(
            f"nested too deeply to read, at line {line} column {column}", file=file
        ) from None
    except _StrictJsonError as exc:
        raise TasklayerError(f"invalid JSON: {exc}", file=file) from None
    except json.JSONDecodeError as exc:
        raise TasklayerError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            file=file,
            fragment=text[max(exc.pos - 60, 0) : exc.pos + 20] or "<empty file>",
        ) from None
    if duplicates:
        owner, key = duplicates[0]
        raise TasklayerError(
            f"duplicate key {key!r} (JSON keeps the last one silently)",
            file=file,
            pointer=_pointer_to(data, owner, key),
        )
    return data


def _too_deep_at(text: str, limit: int = MAX_DEPTH) -> tuple[int, int]:
    """Line and column where brackets first nest deeper than ``limit`` (outside strings)."""
    depth, in_string, escaped, line, start = 0, False, False, 1, 0
    for index, ch in enumerate(text):
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line, index - start + 1
        elif ch in "]}":
            depth -= 1
        if ch == "\n":
            line, start = line + 1, index + 1
    return line, 1


def _object(
    pairs: list[tuple[str, Any]], duplicates: list[tuple[dict[str, Any], str]]
) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        duplicates.append((obj, next(k for k, _ in pairs if k in seen or seen.add(k))))  # type: ignore[func-returns-value]
    return obj


def _pointer_to(root: Any, owner: dict[str, Any], key: str) -> str:
    """The JSON pointer of ``owner[key]`` in ``root`` (walked without recursion)."""
    todo: list[tuple[Any, tuple[str, ...]]] = [(root, ())]
    while todo:
        node, path = todo.pop()
        if node is owner:
            return json_pointer(*path, key)
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node) if isinstance(node, list) else ()
        )
        todo.extend((v, (*path, str(k))) for k, v in items)
    return json_pointer(key)


class _StrictJsonError(ValueError):
    """What RFC 8259 leaves open and Python's json accepts: NaN and Infinity (repeated keys,
    the other such case, are collected by ``_object`` and reported with their pointer)."""


def _no_constant(name: str) -> Any:
    raise _StrictJsonError(f"{name} is not JSON (it would be copied into the shipped package)")

"""YAML as ``yaml.safe_load`` reads it, plus the line of every mapping key.

Overlay errors point at a line, and YAML's silent "last one wins" for a repeated key would
hide one of two corrections, so a duplicate key is an error here.
"""

from __future__ import annotations

from typing import Any

import yaml


class Marked(dict[Any, Any]):
    """A YAML mapping that remembers the (1-based) line each key is on."""

    lines: dict[Any, int]


class _Loader(yaml.SafeLoader):
    """The safe loader; only the mapping constructor differs."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Marked:
    loader.flatten_mapping(node)
    result = Marked()
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in result
        except TypeError:  # a list or mapping used as a key
            raise yaml.MarkedYAMLError(
                problem="a key must be a plain name", problem_mark=key_node.start_mark
            ) from None
        if duplicate:
            raise yaml.MarkedYAMLError(
                problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_yaml(text: str) -> Any:
    """Parse safely (no arbitrary objects); raises yaml.YAMLError."""
    return yaml.load(text, Loader=_Loader)


def yaml_reason(exc: yaml.YAMLError) -> str:
    """'malformed YAML at line L, column C: problem' from PyYAML's error."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return f"malformed YAML: {problem}"
    return f"malformed YAML at line {mark.line + 1}, column {mark.column + 1}: {problem}"

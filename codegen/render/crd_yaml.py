"""YAML of the custom resource definitions, as PyYAML's ``safe_dump`` writes it, faster.

The document is turned into nodes here (a CRD holds only mappings, lists, strings, numbers and
booleans) and emitted with libyaml's emitter when every string is printable, PyYAML's own
otherwise; each scalar's implicit tag is resolved once per distinct text.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, cast

import yaml


def dump_yaml(document: object) -> str:
    """PyYAML's safe dump (``allow_unicode``: text as it is, not ``\\u`` escapes), built faster.

    The nodes are what PyYAML's SafeRepresenter builds for these documents (dicts in order,
    lists, strings, booleans, integers; no object twice, so no aliases), made without its
    generic dispatch; the implicit-tag questions the serializer asks of every scalar are
    answered once per distinct scalar. libyaml's emitter writes PyYAML's bytes except where it
    folds a double-quoted scalar differently; with ``allow_unicode`` a scalar is double-quoted
    only for a character that is not printable, so documents whose strings are all printable
    (all committed ones) take libyaml's emitter and the rest PyYAML's own.
    tests/test_crds.py holds this to PyYAML's plain ``yaml.dump`` on every committed CRD.
    """
    nodes = _Nodes()
    node = nodes.of(document)
    if node is None:  # outside the shapes above: PyYAML's own representer
        # PyYAML's stubs type dump() as Any: it is str when no stream is given
        return cast(str, yaml.dump(document, Dumper=yaml.SafeDumper, **_DUMP_OPTIONS))
    stream = io.StringIO()
    dumper = (_FastDumper if _FastDumper is not None and nodes.printable else _PureDumper)(
        stream, **_DUMP_OPTIONS
    )
    dumper.open()
    dumper.serialize(node)
    dumper.close()
    return stream.getvalue()


_DUMP_OPTIONS: dict[str, Any] = {"sort_keys": False, "width": 100, "allow_unicode": True}
_STR, _BOOL, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"


class _Nodes:
    """SafeRepresenter's nodes under ``default_flow_style=False``, and whether every string is
    printable."""

    def __init__(self) -> None:
        self.printable = True
        self._seen: set[int] = set()

    def of(self, value: object) -> yaml.Node | None:
        """``None`` for a value SafeRepresenter would represent otherwise (another type, or a
        dict or list met twice: an alias)."""
        if isinstance(value, str):
            if self.printable and not value.isprintable():
                self.printable = False
            return yaml.ScalarNode(_STR, value)
        if isinstance(value, bool):
            return yaml.ScalarNode(_BOOL, "true" if value else "false")
        if isinstance(value, int):
            return yaml.ScalarNode(_INT, str(value))
        if not isinstance(value, (dict, list)) or id(value) in self._seen:
            return None
        self._seen.add(id(value))
        if isinstance(value, dict):
            pairs = [(self.of(k), self.of(v)) for k, v in value.items()]
            if any(k is None or v is None for k, v in pairs):
                return None
            return yaml.MappingNode(_MAP, pairs, flow_style=False)
        items = [self.of(v) for v in value]
        if any(v is None for v in items):
            return None
        return yaml.SequenceNode(_SEQ, items, flow_style=False)


# PyYAML's own resolve (no class between _ResolveOnce and BaseResolver overrides it), which its
# stubs leave untyped: (kind, value, implicit) -> the tag
_implicit_tag = cast(
    Callable[[yaml.resolver.BaseResolver, type, Any, Any], str], yaml.resolver.BaseResolver.resolve
)


class _ResolveOnce(yaml.resolver.Resolver):
    """The serializer asks, of every scalar, which tag its text would resolve to implicitly; the
    answer depends on the text alone, and CRDs repeat the same few hundred texts."""

    _resolved: dict[tuple[str, Any], str] = {}

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is not yaml.ScalarNode:
            return _implicit_tag(self, kind, value, implicit)
        key = (value, implicit)
        tag = self._resolved.get(key)
        if tag is None:
            tag = self._resolved[key] = _implicit_tag(self, kind, value, implicit)
        return tag


class _PureDumper(_ResolveOnce, yaml.SafeDumper):
    pass


_FastDumper = (
    type("_FastDumper", (_ResolveOnce, yaml.CSafeDumper), {})
    if hasattr(yaml, "CSafeDumper")
    else None
)

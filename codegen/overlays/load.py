"""Read an overlay file into typed dataclasses, checking every key and value on the way.

A typo in an overlay must never be silently ignored: an overlay exists because a rule was wrong,
and a misspelt key would leave it wrong with nobody noticing. So unknown keys, wrong types and
duplicate keys are errors naming the file, the key path and the line. Checks that need the
draft or the service model (resource, field and operation names) happen in ``check``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, cast

import yaml

from codegen.model import UPDATE_KINDS, Mutability
from codegen.overlays.marked_yaml import Marked, parse_yaml, yaml_reason
from codegen.overlays.schema import (
    ADDED_TYPES,
    FieldOverlay,
    Overlay,
    ResourceOverlay,
    overlay_error,
    suggest,
)

TOP_KEYS = ("resources", "include", "generate")
RESOURCE_KEYS = ("rename", "exclude", "identity", "tags", "fields")
TAGS_KEYS = (
    "field",
    "create_member",
    "resource_type",
    "tag_operation",
    "untag_operation",
    "selector_member",
    "selector_is_list",
    "selector_is_arn",
    "untag_member",
    "read_operation",
    "payload_member",
    "payload_is_map",
    "payload_wrapper",
    "key_member",
    "value_member",
    "create_is_map",
    "selector_extra",
    "read_selector",
)
FIELD_EXTRA_KEYS = ("add", "type")


def find_overlay(schemas_dir: Path, provider: str, service: str) -> Overlay | None:
    """The overlay for one service, ``<schemas_dir>/overlays/<provider>/<service>.yaml``, or None
    when the service has none. The repo root (for provenance) is the parent of ``schemas_dir``."""
    path = schemas_dir / "overlays" / provider / f"{service}.yaml"
    stray = path.with_suffix(".yml")
    if stray.exists():  # would otherwise be ignored without a word
        raise overlay_error(
            _relative(stray, schemas_dir.parent),
            {},
            "",
            "overlay files are named <service>.yaml, not .yml",
        )
    if not path.is_file():
        return None
    return load_overlay(path, schemas_dir.parent)


def load_overlay(path: Path, repo_root: Path) -> Overlay:
    """Parse and shape-check one overlay file."""
    file = _relative(path, repo_root)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise overlay_error(file, {}, "", f"cannot read overlay: {exc}") from None
    try:
        data = parse_yaml(text)
    except yaml.YAMLError as exc:
        raise overlay_error(file, {}, "", yaml_reason(exc)) from None
    except RecursionError:
        raise overlay_error(
            file, {}, "", f"nested too deeply to read, at line {_too_deep_at(text)}"
        ) from None
    return _Reader(file).overlay({} if data is None else data)


def _too_deep_at(text: str, limit: int = 100) -> int:
    """The line where the YAML first nests deeper than ``limit`` (PyYAML's event stream is
    read without recursion, unlike its composer)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limit and event.start_mark is not None:
                    return event.start_mark.line + 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    return 1


def _relative(path: Path, repo_root: Path) -> str:
    try:
        return path.resolve().relative_to(repo_root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


class _Reader:
    """Walks the parsed YAML of one file, building the dataclasses and the key -> line map."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[str, int] = {}

    def fail(self, key: str, reason: str, notes: Iterable[str] = ()) -> NoReturn:
        raise overlay_error(self.file, self.lines, key, reason, notes)

    def mapping(self, value: Any, key: str, allowed: Iterable[str] | None) -> dict[str, Any]:
        """Check ``value`` is a non-empty mapping with string keys (from ``allowed``, if given)."""
        if not isinstance(value, dict) or not value:
            self.fail(key, f"expected a non-empty mapping, got {_shown(value)}")
        allowed = tuple(allowed) if allowed is not None else None
        for k in value:
            sub = f"{key}.{k}" if key else str(k)
            if isinstance(value, Marked) and k in value.lines:
                self.lines[sub] = value.lines[k]
            if not isinstance(k, str) or not k:
                self.fail(sub, f"a key must be a name, got {_shown(k)}")
            if allowed is not None and k not in allowed:
                what = f"unknown key {k!r}{suggest(k, allowed)}"
                self.fail(sub, what, [f"allowed keys: {', '.join(allowed)}"])
        return cast(dict[str, Any], value)

    def overlay(self, data: Any) -> Overlay:
        if data == {}:
            return Overlay(self.file, lines=self.lines)
        top = self.mapping(data, "", TOP_KEYS)
        resources = top.get("resources")
        entries = {} if resources in (None, {}) else self.mapping(resources, "resources", None)
        return Overlay(
            file=self.file,
            resources=tuple(self.resource(n, v) for n, v in entries.items()),
            include=self.names(top["include"], "include") if "include" in top else None,
            **self.generate(top["generate"]) if "generate" in top else {},
            lines=self.lines,
        )

    def generate(self, value: Any) -> dict[str, Any]:
        """``generate: [Vpc, Subnet]``, ``generate: all``, or
        ``generate: {all: true, except: {Fleet: "why not"}}``."""
        if value == "all":
            return {"generate_all": True}
        if not isinstance(value, dict):
            return {"generate": self.names(value, "generate")}
        entry = self.mapping(value, "generate", ("all", "except"))
        if entry.get("all") is not True:
            self.fail(
                "generate.all",
                "a mapping under generate takes all: true (and except:); a list names resources",
            )
        excepted = entry.get("except", {})
        reasons = self.mapping(excepted, "generate.except", None) if excepted != {} else {}
        for name, why in reasons.items():
            if not isinstance(why, str) or not why.strip():
                self.fail(
                    f"generate.except.{name}", f"say why {name} is not generated, got {_shown(why)}"
                )
        return {"generate_all": True, "generate_except": dict(reasons)}

    def resource(self, name: str, value: Any) -> ResourceOverlay:
        key = f"resources.{name}"
        entry = self.mapping(value, key, RESOURCE_KEYS)
        exclude = self.boolean(entry.get("exclude", False), f"{key}.exclude")
        if exclude and len(entry) > 1:
            self.fail(f"{key}.exclude", "an excluded resource takes no other corrections")
        fields = self.mapping(entry["fields"], f"{key}.fields", None) if "fields" in entry else {}
        return ResourceOverlay(
            name=name,
            key=key,
            rename=self.identifier(entry["rename"], f"{key}.rename") if "rename" in entry else None,
            exclude=exclude,
            identity=self.settings(entry, "identity", key, IDENTITY_VALUES),
            tags=self.settings(entry, "tags", key, TAGS_VALUES),
            fields=tuple(self.field(f"{key}.fields.{n}", n, v) for n, v in fields.items()),
        )

    def settings(
        self, entry: dict[str, Any], name: str, key: str, kinds: dict[str, _Check]
    ) -> dict[str, Any]:
        if name not in entry:
            return {}
        given = self.mapping(entry[name], f"{key}.{name}", kinds)
        return {k: kinds[k](self, v, f"{key}.{name}.{k}") for k, v in given.items()}

    def field(self, key: str, name: str, value: Any) -> FieldOverlay:
        entry = self.mapping(value, key, None)  # a provider's own keys are checked with the draft
        add = self.boolean(entry.get("add", False), f"{key}.add")
        kind = entry.get("type")
        if add and (not isinstance(kind, str) or kind not in ADDED_TYPES):
            self.fail(
                f"{key}.type",
                f"an added field needs a type, one of {', '.join(ADDED_TYPES)}; got {_shown(kind)}",
            )
        if not add and "type" in entry:
            self.fail(f"{key}.type", "type is only for a field added with add: true")
        values = {
            k: FIELD_VALUES[k](self, v, f"{key}.{k}") if k in FIELD_VALUES else self.fact(v, key, k)
            for k, v in entry.items()
            if k not in FIELD_EXTRA_KEYS
        }
        return FieldOverlay(
            name=name, key=key, settings=values, add=add, type=kind if add else None
        )

    # value checks: each returns the value in the form the draft takes

    def fact(self, value: Any, key: str, name: str) -> bool | str | None:
        """A provider's field fact: a flag, a name, or null (its variant says which)."""
        if not (
            value is None or isinstance(value, bool) or isinstance(value, str) and value.strip()
        ):
            self.fail(
                f"{key}.{name}", f"expected true or false, a name or null, got {_shown(value)}"
            )
        return value

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_shown(value)}")
        return bool(value)

    def name(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"expected a name, got {_shown(value)}")
        return str(value)

    def optional_name(self, value: Any, key: str) -> str | None:
        """A name, or null to clear what the rules set."""
        return None if value is None else self.name(value, key)

    def identifier(self, value: Any, key: str) -> str:
        """Resource names become class names in generated code."""
        if not isinstance(value, str) or not value.isidentifier():
            self.fail(key, f"expected a name made of letters, digits and _, got {_shown(value)}")
        return str(value)

    def names(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.fail(key, f"expected a list of names, got {_shown(value)}")
        out = tuple(self.name(v, key) for v in value)
        dupes = sorted({n for n in out if out.count(n) > 1})
        if dupes:
            self.fail(key, f"names listed twice: {', '.join(dupes)}")
        return out

    def pairs(self, value: Any, key: str) -> tuple[tuple[str, str], ...]:
        """A list of [name, name] pairs: (update path, field path), (member, fixed value)."""
        if not isinstance(value, list) or not all(
            isinstance(v, list) and len(v) == 2 for v in value
        ):
            self.fail(key, f"expected a list of [name, name] pairs, got {_shown(value)}")
        return tuple((self.name(a, key), self.name(b, key)) for a, b in value)

    def update_kind(self, value: Any, key: str) -> str | None:
        if value is not None and value not in UPDATE_KINDS:
            hint = suggest(value, list(UPDATE_KINDS)) if isinstance(value, str) else ""
            self.fail(
                key,
                f"update_kind must be null or one of {', '.join(UPDATE_KINDS)}, got "
                f"{_shown(value)}{hint}",
            )
        return value  # type: ignore[no-any-return]

    def mutability(self, value: Any, key: str) -> Mutability:
        allowed = [m.value for m in Mutability]
        if value not in allowed:
            hint = suggest(value, allowed) if isinstance(value, str) else ""
            self.fail(
                key, f"mutability must be one of {', '.join(allowed)}, got {_shown(value)}{hint}"
            )
        return Mutability(value)


_Check = Callable[[_Reader, Any, str], Any]

# the neutral facts of every field; a provider's own (its Field.call variant: AwsFieldShape,
# GcpFieldShape) are named and typed by that variant alone, and checked against it with the
# draft (overlays/check.py), which also refuses another provider's in this provider's overlay
FIELD_VALUES: dict[str, _Check] = {
    "mutability": _Reader.mutability,
    "update_operation": _Reader.optional_name,
    "write_only": _Reader.boolean,
    "required": _Reader.boolean,
    "sensitive": _Reader.boolean,
    "server_default": _Reader.boolean,
    "unordered": _Reader.boolean,
    "references": _Reader.optional_name,
    "read_name": _Reader.optional_name,
    "update_name": _Reader.optional_name,
    "read_operation": _Reader.optional_name,
    "after": _Reader.names,
    "sensitive_paths": _Reader.names,
    "update_kind": _Reader.update_kind,
    "remove_operation": _Reader.optional_name,
    "remove_name": _Reader.optional_name,
    "emptied_before_delete": _Reader.boolean,
    "update_paths": _Reader.pairs,
    "create_path": _Reader.optional_name,
}

IDENTITY_VALUES: dict[str, _Check] = {
    "primary": _Reader.names,
    "natural": _Reader.names,
    "parent": _Reader.names,
    "arn": _Reader.optional_name,
}
_TAGS_BOOLEANS = ("selector_is_list", "selector_is_arn", "payload_is_map", "create_is_map")
TAGS_VALUES: dict[str, _Check] = {
    k: (
        _Reader.name
        if k in ("field", "payload_member", "key_member", "value_member")
        else (
            _Reader.boolean
            if k in _TAGS_BOOLEANS
            else _Reader.pairs if k == "selector_extra" else _Reader.optional_name
        )
    )
    for k in TAGS_KEYS
}


def _shown(value: Any) -> str:
    text = "nothing" if value is None else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

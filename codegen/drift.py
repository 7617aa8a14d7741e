"""API drift: what changed for consumers between two sets of pins, resource by resource.

Both sides are annotated by the same rules and overlays, so the report speaks the generated
package's language: resources and fields added or removed, a field that changed class
(create-only / mutable / read-only, write-only, sensitive, required), identity and update
operations, enum values. Each change is judged for someone who vendors the package:

- ``major``: code written against the old package can break (a class, field or enum value is
  gone; a field can no longer be set or changed; a new required field; identity changed).
- ``minor``: something new can be used; old code keeps working.
- ``patch``: behaviour changes behind the same API (another update call, write-only, sensitive).

Changes to resources the package does not render are listed apart and never bump the version.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from codegen.model import Field, Resource, Service

LEVELS = ("none", "patch", "minor", "major")
_WRITABLE = {"create_only", "mutable"}


@dataclass(frozen=True)
class Change:
    service: str  # "aws/ec2"
    resource: str
    kind: str  # resource-added, field-removed, mutability, enum-values-added, ...
    detail: str  # what a reader sees
    level: str  # major / minor / patch
    rendered: bool  # the resource is (or was) in the generated package

    @property
    def breaking(self) -> bool:
        return self.rendered and self.level == "major"


@dataclass(frozen=True)
class Report:
    changes: tuple[Change, ...]
    versions: tuple[tuple[str, str, str], ...]  # (service, old "2016-11-15 botocore 1.43.11", new)
    package_version: str

    @property
    def bump(self) -> str:
        levels = [c.level for c in self.changes if c.rendered] or ["none"]
        return max(levels, key=LEVELS.index)

    @property
    def next_version(self) -> str:
        """The suggested version. Below 1.0 a breaking change bumps the minor number and
        anything else the patch number (semver's 0.x rule, as Cargo applies it)."""
        major, minor, patch = (int(p) for p in self.package_version.split(".")[:3])
        bump = self.bump
        if bump == "none":
            return self.package_version
        if major == 0:
            return f"0.{minor + 1}.0" if bump == "major" else f"0.{minor}.{patch + 1}"
        if bump == "major":
            return f"{major + 1}.0.0"
        return f"{major}.{minor + 1}.0" if bump == "minor" else f"{major}.{minor}.{patch + 1}"

    def to_json(self) -> dict[str, Any]:
        return {
            "package_version": self.package_version,
            "suggested_bump": self.bump,
            "suggested_version": self.next_version,
            "breaking": any(c.breaking for c in self.changes),
            "schemas": [{"service": s, "old": o, "new": n} for s, o, n in self.versions],
            "changes": [{**asdict(c), "breaking": c.breaking} for c in self.changes],
        }


def compare(
    old: list[tuple[Service, frozenset[str]]],
    new: list[tuple[Service, frozenset[str]]],
    labels: tuple[dict[str, str], dict[str, str]],
    package_version: str,
) -> Report:
    """``old`` / ``new``: each annotated service with the resources it renders."""
    before = {f"{s.provider}/{s.name}": (s, r) for s, r in old}
    after = {f"{s.provider}/{s.name}": (s, r) for s, r in new}
    changes: list[Change] = []
    versions = []
    for key in sorted(before.keys() | after.keys()):
        old_service, old_rendered = before.get(key, (None, frozenset()))
        new_service, new_rendered = after.get(key, (None, frozenset()))
        if labels[0].get(key) != labels[1].get(key):
            versions.append((key, labels[0].get(key, "-"), labels[1].get(key, "-")))
        old_resources = {r.name: r for r in old_service.resources} if old_service else {}
        new_resources = {r.name: r for r in new_service.resources} if new_service else {}
        for name in sorted(old_resources.keys() | new_resources.keys()):
            rendered = name in old_rendered or name in new_rendered
            changes += _resource(
                key, name, old_resources.get(name), new_resources.get(name), rendered
            )
    return Report(tuple(changes), tuple(versions), package_version)


def _resource(
    service: str, name: str, old: Resource | None, new: Resource | None, rendered: bool
) -> list[Change]:
    def change(kind: str, detail: str, level: str) -> Change:
        return Change(service, name, kind, detail, level, rendered)

    if old is None:
        return [change("resource-added", f"resource `{name}` added", "minor")]
    if new is None:
        return [change("resource-removed", f"resource `{name}` removed", "major")]
    out = []
    for part in ("primary", "natural", "parent", "arn"):
        a, b = getattr(old.identity, part), getattr(new.identity, part)
        if a != b:
            out.append(change("identity", f"identity {part}: {_show(a)} -> {_show(b)}", "major"))
    old_ops, new_ops = old.operations.names(), new.operations.names()
    for op in sorted(old_ops.keys() | new_ops.keys()):
        a, b = old_ops.get(op), new_ops.get(op)
        if a != b:
            gone = b in (None, []) and op in ("create", "delete", "read")
            out.append(
                change(
                    "operation",
                    f"{op} operation: {_show(a)} -> {_show(b)}",
                    "major" if gone else "patch",
                )
            )
    old_fields, new_fields = {f.name: f for f in old.fields}, {f.name: f for f in new.fields}
    for field in sorted(old_fields.keys() | new_fields.keys()):
        out += [change(*c) for c in _field(field, old_fields.get(field), new_fields.get(field))]
    return out


def _field(name: str, old: Field | None, new: Field | None) -> list[tuple[str, str, str]]:
    if old is None:
        assert new is not None
        cls = _class(new)
        if new.required and new.mutability.value in _WRITABLE:
            return [("field-added", f"required {cls} field `{name}` added", "major")]
        return [("field-added", f"{cls} field `{name}` added", "minor")]
    if new is None:
        return [("field-removed", f"{_class(old)} field `{name}` removed", "major")]
    out = []
    a, b = old.mutability.value, new.mutability.value
    if a != b:
        out.append(("mutability", f"`{name}`: {a} -> {b}", _mutability_level(a, b)))
    if old.type.python() != new.type.python():
        out.append(("type", f"`{name}` type: {old.type.python()} -> {new.type.python()}", "major"))
    if old.required != new.required:
        out.append(
            (
                "required",
                f"`{name}` {'now required' if new.required else 'no longer required'}",
                "major" if new.required else "minor",
            )
        )
    for flag in ("write_only", "sensitive"):
        if getattr(old, flag) != getattr(new, flag):
            out.append(
                (
                    flag.replace("_", "-"),
                    f"`{name}` {flag.replace('_', '-')}: {getattr(old, flag)} -> "
                    f"{getattr(new, flag)}",
                    "patch",
                )
            )
    if old.update_operation != new.update_operation and a == b:
        out.append(
            (
                "update-operation",
                f"`{name}` updated by {_show(old.update_operation)} -> "
                f"{_show(new.update_operation)}",
                "patch",
            )
        )
    old_enum, new_enum = set(_enum(old)), set(_enum(new))
    if new_enum - old_enum and old_enum:
        out.append(
            (
                "enum-values-added",
                f"`{name}` enum values added: {_show(sorted(new_enum - old_enum))}",
                "minor",
            )
        )
    if old_enum - new_enum:
        out.append(
            (
                "enum-values-removed",
                f"`{name}` enum values removed: {_show(sorted(old_enum - new_enum))}",
                "major",
            )
        )
    return out


def _mutability_level(old: str, new: str) -> str:
    if old in _WRITABLE and new in _WRITABLE:
        return "major" if new == "create_only" else "minor"  # mutable -> create-only breaks updates
    if new == "read_only" or old == "unknown" or new == "unknown":
        return "major"  # can no longer be set, or nobody knows
    return "minor"  # read-only -> settable


def _class(field: Field) -> str:
    return field.mutability.value.replace("_", "-")


def _enum(field: Field) -> tuple[str, ...]:
    if field.type.enum:
        return field.type.enum
    return field.type.item.enum if field.type.item is not None else ()


def _show(value: Any) -> str:
    if value in (None, [], ()):
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(f"`{v}`" for v in value)
    return f"`{value}`"


def markdown(report: Report) -> str:
    """A CHANGELOG entry a reviewer reads in the pull request that updates the pins."""
    rendered = [c for c in report.changes if c.rendered]
    other = [c for c in report.changes if not c.rendered]
    lines = [f"## tasklayer-tasks {report.next_version}", ""]
    why = {
        "major": "breaking for code that vendors the package",
        "minor": "additive",
        "patch": "behaviour only",
        "none": "nothing rendered changed",
    }[report.bump]
    below_one = (
        " (below 1.0 a breaking change bumps the minor number, anything else the patch)"
        if report.package_version.startswith("0.") and report.bump != "none"
        else ""
    )
    lines.append(
        f"Suggested bump: **{report.bump}** ({why}): {report.package_version} -> "
        f"{report.next_version}{below_one}."
    )
    if report.versions:
        lines += ["", "Schemas:"] + [f"- {s}: {o} -> {n}" for s, o, n in report.versions]
    for title, level in (("Breaking", "major"), ("Added", "minor"), ("Changed behaviour", "patch")):
        items = [c for c in rendered if c.level == level]
        if items:
            lines += ["", f"### {title}", ""] + [
                f"- {c.service} {c.resource}: {c.detail}" for c in items
            ]
    if not rendered:
        lines += ["", "No change to the rendered resources."]
    if other:
        by_service: dict[str, set[str]] = {}
        for c in other:
            by_service.setdefault(c.service, set()).add(c.resource)
        lines += ["", "### Not rendered (no change to the package)", ""]
        lines += [
            f"- {s}: {len(other_names)} resources changed ({', '.join(sorted(other_names)[:12])}"
            f"{', ...' if len(other_names) > 12 else ''})"
            for s, other_names in sorted(by_service.items())
        ]
    return "\n".join(lines) + "\n"

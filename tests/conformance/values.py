"""Valid values from a member's schema: its kind, enum, limits and pattern, and the few formats
a member's name documents (CIDRs, ARNs, zones, ports, names). What a schema cannot say (a
policy document, an AMI id) comes from ``values/<provider>/<service>.yaml``, each entry saying why.

``variant`` picks another valid value of the same member: 0 is what an apply declares, 1, 2 ...
are what a change declares (the sweep takes the first that differs from what the cloud holds).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .schema import Schema

VALUES_DIR = Path(__file__).resolve().parent / "values"
MAX_DEPTH = 6  # recursive shapes (a filter of filters) stop here


class ValuesFileError(Exception):
    """A values file that is not what the sweep reads: names the file, the entry and why."""


@dataclass(frozen=True)
class Values:
    """``values/<provider>/<service>.yaml``, two keys, each entry saying why:

    - ``set``: ``Resource.Member: why`` -- members the API needs though the schema marks none of
      them required (one of CidrBlock or an IPAM pool); they are set like required ones;
    - ``values``: ``Member`` or ``Resource.Member``: ``{why, values}`` -- values a schema cannot
      give (a policy document, an AMI id), by variant. Inside a value, ``{ref: Kind}`` stands
      for another generated resource of that kind (made first, sent as its id or ARN) where the
      model gives the member no reference (a target group's VpcId); ``{ref: Kind, as: b}`` is a
      second one of that kind (made from the values' next variant: a subnet in another zone).
    """

    entries: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    also_set: frozenset[str] = frozenset()

    @classmethod
    def load(cls, provider: str, service: str, folder: Path = VALUES_DIR) -> Values:
        path = folder / provider / f"{service}.yaml"
        if not path.exists():
            return cls()
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as err:
            raise ValuesFileError(f"{path}: not YAML: {err}") from None
        if not isinstance(data, dict) or not set(data) <= {"set", "values"}:
            raise ValuesFileError(f"{path}: a mapping with 'set' and/or 'values' is expected")
        also_set = data.get("set") or {}
        if not isinstance(also_set, dict):
            raise ValuesFileError(f"{path}: set: a mapping of Resource.Member -> why is expected")
        for key, why in also_set.items():
            if "." not in str(key) or not isinstance(why, str) or not why.strip():
                raise ValuesFileError(f"{path}: set: {key}: Resource.Member -> why it is needed")
        entries: dict[str, tuple[Any, ...]] = {}
        for key, entry in (data.get("values") or {}).items():
            where = f"{path}: values: {key}"
            if not isinstance(entry, dict) or set(entry) != {"why", "values"}:
                raise ValuesFileError(f"{where}: must have exactly 'why' and 'values'")
            if not isinstance(entry["why"], str) or not entry["why"].strip():
                raise ValuesFileError(f"{where}: 'why' must say what the schema cannot")
            if not isinstance(entry["values"], list) or not entry["values"]:
                raise ValuesFileError(f"{where}: 'values' must be a non-empty list")
            for problem in _bad_refs(entry["values"]):
                raise ValuesFileError(f"{where}: {problem}")
            entries[str(key)] = tuple(entry["values"])
        return cls(entries, frozenset(str(k) for k in also_set))

    def sets(self, resource: str) -> set[str]:
        """The members of ``resource`` set although no schema requires them."""
        return {k.split(".", 1)[1] for k in self.also_set if k.split(".", 1)[0] == resource}

    def refs(self, resource: str, member: str) -> list[Ref]:
        """The ``{ref: Kind}`` markers in any variant of ``resource``'s ``member``."""
        for key in (f"{resource}.{member}", member):
            if key in self.entries:
                return [r for v in self.entries[key] for r in refs_in(v)]
        return []

    def get(self, resource: str, member: str, variant: int) -> tuple[bool, Any]:
        for key in (f"{resource}.{member}", member):
            if key in self.entries:
                values = self.entries[key]
                return True, values[variant % len(values)]
        return False, None


@dataclass(frozen=True)
class Ref:
    """Another generated resource of ``kind`` inside a value (``{ref: Kind, as: tag}``)."""

    kind: str
    tag: str = ""


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and "ref" in value and set(value) <= {"ref", "as"}


def refs_in(value: Any) -> list[Ref]:
    """The ``{ref: Kind}`` markers inside a values-file value, depth first."""
    if is_ref(value):
        return [Ref(str(value["ref"]), str(value.get("as", "")))]
    if isinstance(value, list):
        return [r for v in value for r in refs_in(v)]
    if isinstance(value, dict):
        return [r for v in value.values() for r in refs_in(v)]
    return []


def replace_refs(value: Any, made: Any) -> Any:
    """``value`` with each ``{ref: Kind}`` replaced by ``made(Ref)``; ``{join: [...]}`` is the
    runtime's ``Joined`` (ids sent as one comma-joined string: VPCZoneIdentifier)."""
    if is_ref(value):
        return made(Ref(str(value["ref"]), str(value.get("as", ""))))
    if isinstance(value, dict) and set(value) == {"join"}:
        from tasklayer_tasks.runtime.kops.nested import Joined

        return Joined(replace_refs(value["join"], made))
    if isinstance(value, list):
        return [replace_refs(v, made) for v in value]
    if isinstance(value, dict):
        return {k: replace_refs(v, made) for k, v in value.items()}
    return value


def _bad_refs(values: Any) -> list[str]:
    bad = []
    for value in values:
        for ref in refs_in(value):
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", ref.kind):
                bad.append(f"ref {ref.kind!r}: a resource kind (CamelCase) is expected")
    return bad


@dataclass
class Synth:
    """Values for one resource of one service."""

    provider: str
    service: str
    resource: str
    values: Values
    unique: str  # keeps this resource's names apart from the others' in one mock
    depth: int = 0  # reference hops below a root resource: CIDRs nest inside their parent's

    def value(self, member: str, schema: Schema, variant: int = 0, level: int = 0) -> Any:
        found, given = self.values.get(self.resource, member, variant)
        if found:
            return given
        kind = schema.kind
        if kind == "structure":
            return self._structure(schema, variant, level)
        if kind == "list":
            count = max(1, int(schema.minimum or 1))
            item = schema.item
            return [self.value(member, item, variant + i, level + 1) for i in range(count)]
        if kind == "map":
            return {f"sweep{variant}": self.value(member, schema.item, variant, level + 1)}
        if kind == "boolean":
            return variant % 2 == 0
        if kind in ("integer", "float"):
            number = self._number(member, schema, variant)
            return str(number) if schema.as_text else number
        if kind == "timestamp":
            return datetime.datetime(2030, 1, 1 + variant % 28, tzinfo=datetime.timezone.utc)
        if kind == "blob":
            return f"sweep{variant}".encode()
        return self._string(member, schema, variant)

    def _structure(self, schema: Schema, variant: int, level: int) -> dict[str, Any]:
        members = schema.members
        names = [m for m in schema.required if m in members]
        if not names and level < MAX_DEPTH:  # something to send: its first plain member
            plain = [
                m
                for m, s in members.items()
                if s.kind in ("string", "boolean", "integer") and m not in schema.output_only
            ]
            names = plain[:1]
        if level >= MAX_DEPTH:
            return {}
        return {m: self.value(m, members[m], variant, level + 1) for m in names}

    def _number(self, member: str, schema: Schema, variant: int) -> int | float:
        low = int(schema.minimum) if schema.minimum is not None else None
        high = int(schema.maximum) if schema.maximum is not None else None
        hint = member.lower()
        if "port" in hint:
            wanted = (80, 443, 8080, 8443)[variant % 4]
        elif "percent" in hint:
            wanted = 10 + 10 * variant
        else:
            wanted = (low if low is not None and low > 0 else 1) + variant
        if low is not None:
            wanted = max(wanted, low + variant)
        if high is not None and wanted > high:
            wanted = max(high - variant, low if low is not None else 0)
        return float(wanted) if schema.kind == "float" else wanted

    def _string(self, member: str, schema: Schema, variant: int) -> str:
        if schema.enum:
            return schema.enum[variant % len(schema.enum)]
        candidates = self._candidates(member, variant)
        for text in candidates:
            if schema.matches(text):
                return text
        text = candidates[0]
        if schema.maximum is not None and len(text) > schema.maximum:
            text = text[-int(schema.maximum) :]
        if schema.minimum is not None and len(text) < schema.minimum:
            text = text.ljust(int(schema.minimum), "x")
        return text

    def _candidates(self, member: str, variant: int) -> list[str]:
        """Values a member's name documents, most specific first; the first that the schema's
        pattern and limits accept is taken."""
        hint = member.lower()
        slug = f"sweep-{self.unique}-{variant}"
        plain = f"sweep{self.unique}{variant}".replace("-", "")
        out: list[str] = []
        if "cidr" in hint and "ipv6" in hint:
            out.append(f"2600:1f18:{variant:x}::/56")
        elif "cidr" in hint or hint.endswith(("range", "ranges")) or hint == "destination":
            out.append(self._cidr(variant))
        if "arn" in hint:
            out.append(f"arn:aws:{self.service}:us-east-1:123456789012:{hint}/{plain}")
        if "availabilityzoneid" in hint or hint == "zoneid":
            out.append("use1-az1")
        elif "availabilityzone" in hint or hint == "zone":
            out.append("us-east-1a" if self.provider == "aws" else "us-central1-a")
        if hint == "region":
            out.append("us-east-1" if self.provider == "aws" else "us-central1")
        if "protocol" in hint:
            out.append("tcp" if self.provider == "aws" else "TCP")
        if hint.endswith(("ipaddress", "ip")):
            out.append(f"10.0.{variant + 1}.10")
        if "email" in hint:
            out.append(f"{plain}@example.com")
        if hint.endswith(("url", "uri", "endpoint")):
            out.append(f"https://example.com/{plain}")
        if "domain" in hint or "dnsname" in hint or hint == "name" and self.resource.endswith("Zone"):
            out.append(f"{plain}.example.com.")
        if hint == "path" or hint.endswith("path"):
            out.append("/" if variant == 0 else f"/{plain}/")
        if "description" in hint or "comment" in hint:
            out.append(f"sweep description {variant}")
        out += [slug, plain, plain.lower(), slug.lower(), f"{variant + 1}"]
        return out

    def _cidr(self, variant: int) -> str:
        """Nested by depth: a root's /16 holds its children's /24, which hold their /28."""
        if self.depth == 0:
            return f"10.{variant}.0.0/16"
        if self.depth == 1:
            return f"10.0.{variant + 1}.0/24"
        return f"10.0.1.{16 * (variant + 1)}/28"

    def name(self) -> str:
        """The task's own name: a name every cloud takes (lower case, a letter first)."""
        base = re.sub(r"(?<!^)(?=[A-Z])", "-", self.resource).lower()
        return f"s{self.unique}-{base}"[:63].rstrip("-")

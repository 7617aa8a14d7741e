"""The annotation dump: what the annotator decided, as JSON (see README.md) or as a table."""

from __future__ import annotations

import dataclasses
from typing import Any

from codegen.model import DEGRADED, CallShape, Field, Resource, Service, TagsModel


def field_document(f: Field, detail: bool = False) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": f.name,
        "mutability": f.mutability.value,
        "write_only": f.write_only,
        "update_operation": f.update_operation,
        "required": f.required,
        "sensitive": f.sensitive,
        "server_default": f.server_default,
        "source": f.source,
    }
    if DEGRADED in f.provenance:  # the class the runtime cannot honour, and why it is this one
        doc["degraded"] = f.provenance[DEGRADED]
    if detail:
        doc.update(
            unordered=f.unordered,
            references=f.references,
            read_name=f.read_name,
            update_name=f.update_name,
            read_operation=f.read_operation,
            update_kind=f.update_kind,
            remove_operation=f.remove_operation,
            emptied_before_delete=f.emptied_before_delete,
            update_paths=[list(p) for p in f.update_paths],
            create_path=f.create_path,
            type=f.type.python(),
            provenance=dict(f.provenance),
        )
    return doc


def resource_document(r: Resource, detail: bool = False) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": r.name,
        "operations": r.operations.names(),
        "identity": {
            "primary": list(r.identity.primary),
            "arn": r.identity.arn,
            "natural": list(r.identity.natural),
            "parent": list(r.identity.parent),
        },
        "fields": [field_document(f, detail) for f in r.fields],
    }
    if detail:
        doc["api_name"] = r.api_name
        doc["shape"] = r.shape
        doc["waiters"] = list(r.waiters)
        doc["idempotency_token"] = (
            r.operations.create.idempotency_token if r.operations.create else None
        )
        doc["tags"] = None if r.tags is None else _tags_document(r.tags)
        doc["provenance"] = {
            **r.provenance,
            **{f"identity.{k}": v for k, v in r.identity.provenance.items()},
        }
    return doc


def _tags_document(tags: TagsModel) -> dict[str, Any]:
    flat, call = variant_document(tags.call)
    return {
        "create_member": tags.create_member,
        "resource_type": flat.get("resource_type"),  # a key of the format for every provider
        "tag_operation": tags.tag_operation,
        "untag_operation": tags.untag_operation,
        "selector_member": tags.selector_member,
        "read_operation": tags.read_operation,
        # the provider's own tag-call facts (AWS: payload member, map or list, wrapper, ...)
        **({"call": call} if call is not None else {}),
    }


def variant_document(call: CallShape) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(flat keys, the "call" object or None) of a provider variant as the dump prints it: the
    facts its shape names in ``DUMPED_FLAT`` print beside the neutral ones, those in
    ``NOT_DUMPED`` nowhere, and the rest under "call" when any differs from its default."""
    facts = dataclasses.asdict(call)
    defaults = dataclasses.asdict(type(call)())
    flat = {k: facts.pop(k) for k in call.DUMPED_FLAT}
    for k in call.NOT_DUMPED:
        facts.pop(k)
    return flat, facts if any(v != defaults[k] for k, v in facts.items()) else None


def service_document(service: Service, detail: bool = False) -> dict[str, Any]:
    return {
        "provider": service.provider,
        "service": service.name,
        "api_version": service.api_version,
        "resources": [resource_document(r, detail) for r in service.resources],
    }


def service_table(service: Service) -> str:
    """A human view: one table per resource."""
    out = [
        f"{service.provider}/{service.name} {service.api_version}: {len(service.resources)} "
        "resources"
    ]
    for r in service.resources:
        ops = r.operations.names()
        ident = r.identity
        out.append("")
        out.append(
            f"{r.name}  (primary {', '.join(ident.primary) or '-'}; natural "
            f"{', '.join(ident.natural) or '-'};"
            f" parent {', '.join(ident.parent) or '-'}; arn {ident.arn or '-'})"
        )
        out.append("  " + "  ".join(f"{k}={v}" for k, v in ops.items() if v))
        rows = [("field", "class", "update via", "flags", "source")]
        for f in r.fields:
            flags = [
                n
                for n, on in (
                    ("required", f.required),
                    ("write-only", f.write_only),
                    ("sensitive", f.sensitive),
                    ("server-default", f.server_default),
                    ("unordered", f.unordered),
                )
                if on
            ]
            if f.references:
                flags.append(f"-> {f.references}")
            if f.update_kind:  # add/remove pairs, patches, nested or flattened members, keyed items
                flags.append(f.update_kind)
            if DEGRADED in f.provenance:
                flags.append("degraded")
            via = " / ".join(op for op in (f.update_operation, f.remove_operation) if op)
            rows.append((f.name, f.mutability.value, via, ",".join(flags), f.source))
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        for row in rows:
            cells = "  ".join(c.ljust(w) for c, w in zip(row[:4], widths, strict=True))
            out.append(f"  {cells}  {row[4]}")
        out += [
            f"  degraded {f.name}: {f.provenance[DEGRADED]}"
            for f in r.fields
            if DEGRADED in f.provenance
        ]
    return "\n".join(out)


def corpus_summary(services: list[Service]) -> dict[str, Any]:
    fields = [f for s in services for r in s.resources for f in r.fields]
    unknown = sum(1 for f in fields if f.mutability.value == "unknown")
    return {
        "services": len(services),
        "resources": sum(len(s.resources) for s in services),
        "fields": len(fields),
        "unknown_fields": unknown,
        "unknown_fraction": round(unknown / len(fields), 4) if fields else 0.0,
    }

"""The GCP side of the views: how a GCP resource's calls are written into its spec literal,
and the trimmed discovery document shipped beside the generated tasks.

Calls are discovery method ids; each names the resource through parameters: the scope
(``@project``, ``@region``, ``@zone``, filled from the task or the context) and the resource's
own name parameter (``network``, ``resource``), filled from its ``name``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from codegen.errors import TasklayerError
from codegen.model import Mutability, Operation
from codegen.naming import Code, PythonIdentifier, python_literal
from codegen.providers.gcp.shapes import GcpFieldShape, gcp
from codegen.render.views import Argument, FieldView, ResourceView, arguments

SCOPES = ("project", "region", "zone")


class GcpFieldView(FieldView):
    """A GCP field: sent as a query parameter of its update (``resize(size=)``), or read back
    as a member of the resource it refers to (an Address's ``address``)."""

    field_shape = GcpFieldShape


class GcpResourceView(ResourceView):
    """A GCP resource as the templates print it."""

    field_view = GcpFieldView

    @property
    def scopes(self) -> list[PythonIdentifier]:
        """The scope attributes the task takes (``region``/``zone``), beside the context's."""
        return [
            PythonIdentifier(s) for s in ("region", "zone") if s in self.resource.identity.parent
        ]

    def _identity(self, op: Operation) -> tuple[tuple[str, str], ...]:
        """(parameter, source) for each path parameter of a call: ``=projects/{project}`` a
        resource-name path; ``@project`` from the scope (also container's ``projectId``);
        a member of the resource's identity as itself (a record set's ``name`` and ``type``);
        a parent it lives in as the field holding it (a storage ACL's ``bucket``, a record
        set's ``managedZone``: gcp.path-parents-are-inputs); the parameter selecting the resource
        itself (``{network}``) as the field holding its name. A parent with no field to come
        from has no source: the resource cannot be rendered, rather than be sent to a parent
        named after itself."""
        identity = self.resource.identity.primary
        primary = identity[0] if identity else "name"
        settable = {
            f.name for f in self.resource.fields if f.mutability is not Mutability.READ_ONLY
        }
        templates = dict(gcp(op).param_templates)
        create = self.resource.operations.create
        parents = set(create.identity_members) if create is not None else set()  # not its own
        placed_in = parents & set(
            self.resource.identity.parent
        )  # an in-place create's own name is not
        out = []
        for m in op.identity_members:
            scope = m[: -len("Id")] if m.endswith("Id") else m
            if m in templates:
                out.append((m, "=" + templates[m]))
            elif scope in SCOPES:
                out.append((m, f"@{scope}"))
            elif m in identity or m in settable and m in parents:
                out.append((m, m))
            elif m in placed_in:
                raise TasklayerError(
                    f"{op.name} names the {self.resource.name}'s parent by its path parameter "
                    f"{m!r}, "
                    "which no field of the resource holds and no scope or resource-name path fills",
                    pointer=f"{self.service.provider}/{self.service.name}/{self.resource.name}",
                )
            else:
                out.append((m, primary))
        return tuple(out)

    def _fingerprints(self, op: Operation) -> tuple[str, ...]:
        read_only = {f.name for f in self.resource.fields if f.mutability is Mutability.READ_ONLY}
        return tuple(n for n in op.fields if n in read_only and n.lower().endswith("fingerprint"))

    def read_arguments(self) -> list[Argument] | None:
        op = self.resource.operations.read
        if op is None:
            return None
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("output_member", None),
            ("output_is_list", False),
            ("id_filter", None),
            ("id_filter_is_list", False),
            ("filters_member", None),
            ("natural_filter", None),
            ("nested_member", None),
            ("identity", self._identity(op)),
        ]
        return arguments(values)

    def create_arguments(self) -> list[Argument] | None:
        op = self.resource.operations.create
        if op is None:
            return None
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("output_member", None),
            ("output_is_list", False),
            ("id_member", None),
            ("idempotency_token", op.idempotency_token),
            ("identity", self._identity(op)),
            ("body_member", gcp(op).body_member),
            ("id_param", gcp(op).id_param),
            ("id_in_query", gcp(op).id_in_query),
        ]
        return arguments(
            [(k, v) for k, v in values if v not in (None, False) or k in self._required_create]
        )

    _required_create = (
        "operation",
        "output_member",
        "output_is_list",
        "id_member",
        "idempotency_token",
    )

    def call_arguments(self, op: Operation) -> list[Argument]:
        call = gcp(op)
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("identity", self._identity(op)),
            ("fingerprints", self._fingerprints(op)),
            ("body_member", call.body_member),
            ("mask_param", call.mask_param),
            ("mask_in_body", call.mask_in_body),
            ("idempotency_token", op.idempotency_token),
            ("required", call.required_members),
            ("item_keys", call.item_keys),
        ]
        return arguments(
            [(k, v) for k, v in values if k == "identity" or v not in ((), None, False)]
        )  # no default

    def update_calls(self) -> list[list[Argument]]:
        """Update calls, the remove… partners of add… calls, and the labels call."""
        ops = list(self.resource.operations.update)
        tag = self.resource.operations.tag
        if tag is not None and tag.name not in {o.name for o in ops}:
            ops.append(tag)
        return [self.call_arguments(op) for op in ops]

    def spec_extras(self) -> list[tuple[PythonIdentifier, Code]]:
        waiter = self.resource.waiters[0] if self.resource.waiters else None
        extras = [
            (PythonIdentifier("api_version"), Code("{}", python_literal(self.service.api_version))),
            (PythonIdentifier("operation_waiter"), Code("{}", python_literal(waiter))),
        ]
        record = self.resource.identity.owner_record
        if record is not None:
            extras.append((PythonIdentifier("owner_record"), Code("{}", python_literal(record))))
        args = self.listing_arguments()
        if args is not None:
            extras.append(
                (
                    PythonIdentifier("listing"),
                    Code(
                        "ReadSpec({})", Code.listing(", ", [Code("{}={}", k, v) for k, v in args])
                    ),
                )
            )
        return extras

    def listing_arguments(self) -> list[Argument] | None:
        """The collection's ``list`` in the resource's scope: a pass lists it once (by the
        cluster's label where it takes a ``filter``), and a resource named by a path the server
        makes is found in it by its natural key. Not ``aggregatedList``: its items are a map of
        scopes, not the resources of one."""
        op = self.resource.operations.list
        if op is None or not op.name.endswith(".list") or op.output_member is None:
            return None
        values: list[tuple[str, object]] = [
            ("operation", op.name),
            ("output_member", op.output_member),
            ("output_is_list", True),
            ("id_filter", None),
            ("id_filter_is_list", False),
            ("filters_member", None),
            ("natural_filter", op.natural_filter),
            ("nested_member", None),
            ("identity", self._identity(op)),
        ]
        return arguments(values)


def trimmed_document(document: Mapping[str, Any], views: list[GcpResourceView]) -> str:
    """The pinned discovery document cut down to what the generated resources call (and the
    operations they wait on), with the schemas those methods reach: enough for googleapiclient
    to build a client, small enough to ship."""
    used = set()
    for view in views:
        ops = view.resource.operations
        used |= {
            o.name for o in (ops.create, ops.read, ops.list, ops.delete, ops.tag) if o is not None
        }
        used |= {o.name for o in ops.update}
        used |= set(view.resource.waiters) | {
            w.rsplit(".", 1)[0] + ".get" for w in view.resource.waiters
        }
    resources = _keep_methods(document.get("resources", {}), used)
    schemas = _reachable(document.get("schemas", {}), resources)
    kept = {k: v for k, v in document.items() if k not in ("resources", "schemas", "auth")}
    kept.update(resources=resources, schemas=schemas)
    return json.dumps(kept, indent=1, sort_keys=True) + "\n"


def _keep_methods(resources: dict[str, Any], used: set[str]) -> dict[str, Any]:
    out = {}
    for name, resource in resources.items():
        methods = {k: m for k, m in (resource.get("methods") or {}).items() if m.get("id") in used}
        nested = _keep_methods(resource.get("resources") or {}, used)
        if methods or nested:
            out[name] = {
                **({"methods": methods} if methods else {}),
                **({"resources": nested} if nested else {}),
            }
    return out


def _reachable(schemas: dict[str, Any], resources: dict[str, Any]) -> dict[str, Any]:
    todo = list(_refs(resources))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(_refs(schemas[name]))
    return {name: schemas[name] for name in sorted(seen)}


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []

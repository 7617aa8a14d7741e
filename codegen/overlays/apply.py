"""The overlay stage: a service draft in, the corrected draft out, after every rule ran and
before the draft is frozen. The draft given is not changed.

Every value an overlay sets records ``overlay:<file>#<key path>`` as its provenance, so a
reader who wonders why a field is create-only finds the line that said so. Side effects that
keep the draft consistent (references following a rename, a field moving between update calls,
references to a resource that is gone) are recorded against the overlay key that caused them.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import fields, replace

from codegen.draft import FIELD_DEFAULTS, FieldDraft, ResourceDraft, ServiceDraft
from codegen.model import CallShape, Mutability, Operation, TagsModel
from codegen.overlays.check import Names, check_overlay
from codegen.overlays.schema import ADDED_TYPES, FieldOverlay, Overlay, ResourceOverlay


def apply_overlay(
    given: ServiceDraft, overlay: Overlay, operation_names: Collection[str]
) -> ServiceDraft:
    """The draft as the overlay corrects it: the whole overlay is checked first, then renames,
    corrections, and finally exclusions and ``include`` are applied to a copy."""
    names = check_overlay(given, overlay, operation_names)
    draft = copy.deepcopy(given)
    _rename(draft, overlay, names)
    for entry in overlay.resources:
        if entry.exclude:
            continue
        resource = draft.resources[names.renames.get(entry.name, entry.name)]
        _apply_identity(overlay, resource, entry)
        _apply_tags(overlay, resource, entry, draft.tag_shape)
        for fo in entry.fields:
            _apply_field(overlay, resource, fo, draft.call_shape, draft.field_shape)
    _drop(draft, overlay, names)
    return draft


def _rename(draft: ServiceDraft, overlay: Overlay, names: Names) -> None:
    """New name, same api_name; references elsewhere follow, since they name resources."""
    if not names.renames:
        return
    for old, new in names.renames.items():
        draft.resources[old].set("name", new, overlay.source(f"resources.{old}.rename"))
    draft.resources = {names.renames.get(k, k): r for k, r in draft.resources.items()}
    for resource in draft.resources.values():
        for f in resource.fields.values():
            old = f.get("references")
            if old in names.renames:
                f.set("references", names.renames[old], overlay.source(f"resources.{old}.rename"))


def _drop(draft: ServiceDraft, overlay: Overlay, names: Names) -> None:
    """Remove excluded and not-included resources, and clear references to them: a reference
    must name a resource the model has."""
    why = {old: f"resources.{old}.exclude" for old in names.excluded}
    why.update(dict.fromkeys(names.final - names.kept, "include"))
    if not why:
        return
    draft.resources = {k: r for k, r in draft.resources.items() if k not in why}
    for resource in draft.resources.values():
        for f in resource.fields.values():
            ref = f.get("references")
            if ref in why:
                f.set("references", None, overlay.source(why[ref]))


def _apply_identity(overlay: Overlay, resource: ResourceDraft, entry: ResourceOverlay) -> None:
    for attr, value in entry.identity.items():
        resource.set(attr, value, overlay.source(f"{entry.key}.identity.{attr}"))


def _apply_tags(
    overlay: Overlay, resource: ResourceDraft, entry: ResourceOverlay, tag_shape: type[CallShape]
) -> None:
    """Correct the tags model in place (or make one, when the rules found none); the tag and
    untag operations the resource calls follow it."""
    if not entry.tags:
        return
    src = overlay.source(f"{entry.key}.tags")
    neutral = {f.name for f in fields(TagsModel)}
    given = {k: v for k, v in entry.tags.items() if k in neutral}
    facts = {
        k: v for k, v in entry.tags.items() if k not in neutral
    }  # the provider's (check_overlay)
    base = resource.tags
    tags = replace(base, **given, source=src) if base else TagsModel(**given, source=src)
    resource.set("tags", tags.with_call(tag_shape, **facts) if facts else tags, src)
    for attr, role in (("tag_operation", "tag"), ("untag_operation", "untag")):
        if attr in entry.tags:
            op = entry.tags[attr]
            resource.set(role, Operation(op, role, source=src) if op else None, src)


def _apply_field(
    overlay: Overlay,
    resource: ResourceDraft,
    fo: FieldOverlay,
    call_shape: type[CallShape],
    field_shape: type[CallShape],
) -> None:
    if fo.add:
        assert fo.type is not None  # load guarantees it
        added = FieldDraft(fo.name, ADDED_TYPES[fo.type])
        added.provenance["name"] = overlay.source(f"{fo.key}.add")
        resource.fields[fo.name] = added
    f = resource.fields[fo.name]
    previous = f.get("update_operation")
    for attr, value in fo.settings.items():
        if attr in FIELD_DEFAULTS:
            f.set(attr, value, overlay.source(f"{fo.key}.{attr}"))
        else:  # the provider's own fact (check_overlay refused another provider's)
            f.set_call(field_shape, attr, value, overlay.source(f"{fo.key}.{attr}"))
    mutability = fo.settings.get("mutability")
    if (
        mutability not in (None, Mutability.MUTABLE)
        and "update_operation" not in fo.settings
        and previous
    ):
        # a field the overlay says cannot change keeps no update operation from the rules
        f.set("update_operation", None, overlay.source(f"{fo.key}.mutability"))
    if f.get("update_operation") != previous:
        _reroute(
            resource,
            fo.name,
            previous,
            f.get("update_operation"),
            f.provenance["update_operation"],
            call_shape,
        )


def _reroute(
    resource: ResourceDraft,
    field: str,
    old: str | None,
    new: str | None,
    src: str,
    call_shape: type[CallShape],
) -> None:
    """Keep the resource's update calls in step with the field: it leaves the call that carried
    it (a call left carrying nothing is dropped) and joins ``new``, made if the rules had none."""
    calls: list[Operation] = []
    for op in resource.update:
        if op.name == old and field in op.fields:
            op = replace(op, fields=tuple(f for f in op.fields if f != field))
            if not op.fields:
                continue
        calls.append(op)
    if new is not None:
        at = next((i for i, op in enumerate(calls) if op.name == new), None)
        if at is None:
            delete = resource.delete  # a new update call selects the resource as its delete does
            members = delete.identity_members if delete else tuple(resource.primary)
            call = call_shape.selecting_like(delete, members)
            calls.append(
                Operation(
                    new, "update", identity_members=members, call=call, fields=(field,), source=src
                )
            )
        elif field not in calls[at].fields:
            calls[at] = replace(calls[at], fields=(*calls[at].fields, field))
    resource.set("update", calls, src)

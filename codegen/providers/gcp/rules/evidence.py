"""Rules that weigh a field's own text against what its resource's update method says.

A compute update method that takes the whole resource is not evidence that every field can
change: ``disks.update`` "is performed only on selected fields included as part of
update-mask" and names none; a ``params`` value is "not persisted as part of resource payload".
And a method's text can be older than its fields': ``forwardingRules.patch`` says "you can only
patch the network_tier field", while ``allowGlobalAccess`` says it is fixed only "for
INTERNAL_MANAGED forwarding rules". These rules run before the resource's own update is taken to
carry what is left, so the more specific text decides.
"""

from __future__ import annotations

import re

from codegen.annotate.draft import FieldDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.actions import writable
from codegen.providers.gcp.rules.classify import unset
from codegen.providers.gcp.rules.context import Facts, GcpContext, Method
from codegen.providers.gcp.rules.text import behaviours, clean, sentences, update_limit
from codegen.providers.gcp.rules.updates import carry, own_update

MASK_PARAMETERS = ("updateMask", "paths", "fieldMask")
# "The update is performed only on selected fields included as part of update-mask."
_MASK_LIMIT = re.compile(r"\bonly\b.*\b(selected|specified|certain)\b.*\bfields?\b.*\bmask\b", re.I)
# A sentence that fixes the value: "this field cannot be changed after ... is created".
_FIXED = re.compile(
    r"\b(cannot|can't|can not) be (changed|updated|modified)\b|\bcan (only )?be set only "
    r"at\b|\bis not mutable\b",
    re.I,
)
# ... only in some case: "Note that for INTERNAL_MANAGED forwarding rules, this field cannot ...".
_CONDITION = re.compile(r"^(note that )?(for|if|when|unless|in case)\b[^,]+,", re.I)
# The text speaks of switching the value on an existing resource.
_SWITCH = re.compile(
    r"\bsetting this( field)? to (true|false)\b|\benabling this (feature|option|setting)\b"
    r"|\bif \w+ is enabled\b",
    re.I,
)
# The text says the value can change: "can be updated", "may be changed later".
_CHANGEABLE = re.compile(
    r"(?<!not )\b(can|may)( later)? be (changed|updated|modified|patched)\b", re.I
)


def _mask(ctx: GcpContext, method: Method) -> bool:
    """The method takes a field mask: a query parameter, or a member of its body."""
    params = method.get("parameters", {})
    return any(p in params for p in MASK_PARAMETERS) or any(
        p in ctx.body(method) for p in MASK_PARAMETERS
    )


def masked_without_names(ctx: GcpContext, facts: Facts) -> Method | None:
    """The resource's own update when it says it changes only the fields of its mask that are
    "selected", and names none of them (``disks.update``, ``regionDisks.update``)."""
    found = own_update(ctx, facts)
    if found is None or not _mask(ctx, found[1]):
        return None
    text = found[1].get("description", "")
    said = any(_MASK_LIMIT.search(s) for s in sentences(text))
    return found[1] if said and update_limit(text, ()) is None else None


def _fixed_only_when(text: str) -> bool:
    """Every sentence that fixes the value names a case it applies to."""
    fixing = [s for s in sentences(text) if _FIXED.search(s)]
    return bool(fixing) and all(_CONDITION.search(s) for s in fixing)


def _carried_by_own_update(ctx: GcpContext, facts: Facts, f: FieldDraft, rid: str) -> None:
    found = own_update(ctx, facts)
    if found is None or not f.in_read:
        return
    carry(facts, found[1]["id"], f.name)
    f.set("mutability", Mutability.MUTABLE, rid)


@rule("gcp.input-only-is-create-only")
def input_only(ctx: GcpContext) -> None:
    """An "Input only" value the create takes (``params``: "Additional params passed with the
    request, but not persisted as part of resource payload") is used by that call and not kept:
    no later update changes it, whatever body the update takes. Create-only (and write-only)."""
    rid = source("gcp.input-only-is-create-only")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if unset(f) and f.in_create and behaviours(f.documentation).input_only:
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("gcp.field-doc-fixed-only-when")
def fixed_only_when(ctx: GcpContext) -> None:
    """A field whose text fixes it only in a named case ("Note that for INTERNAL_MANAGED
    forwarding rules, this field cannot be changed after the forwarding rule is created") can
    change otherwise: mutable through the resource's own update, even where that update's
    older text names other fields ("you can only patch the network_tier field")."""
    rid = source("gcp.field-doc-fixed-only-when")
    for resource, facts in ctx.resources():
        for f in writable(resource).values():
            if unset(f) and f.in_create and _fixed_only_when(f.documentation):
                _carried_by_own_update(ctx, facts, f, rid)


@rule("gcp.field-doc-describes-switch")
def describes_switch(ctx: GcpContext) -> None:
    """A field whose text says what switching it does to the resource ("Setting this to true
    allows this subnetwork's ranges to overlap", "Enabling this feature will assign a /48", "If
    logging is enabled, logs are exported") is a switch on the live resource: mutable through
    the resource's own update, even where that update's text names other fields or leaves it
    to field texts that say nothing else. Text that fixes the value was read first."""
    rid = source("gcp.field-doc-describes-switch")
    for resource, facts in ctx.resources():
        for f in writable(resource).values():
            if unset(f) and f.in_create and _SWITCH.search(clean(f.documentation)):
                _carried_by_own_update(ctx, facts, f, rid)


@rule("gcp.masked-update-names-no-fields")
def masked_update(ctx: GcpContext) -> None:
    """An update that takes the whole resource but is "performed only on selected fields
    included as part of update-mask", naming none (``disks.update``), is no evidence that a
    given field can change: a field the create takes whose own text does not say it can change
    (architecture, encryption keys, guest OS features, licenses, physical block size) is
    create-only. Fields set by their own actions (``resize``, ``setLabels``) were decided before."""
    rid = source("gcp.masked-update-names-no-fields")
    for resource, facts in ctx.resources():
        if masked_without_names(ctx, facts) is None:
            continue
        for f in writable(resource).values():
            if unset(f) and f.in_create and not _CHANGEABLE.search(clean(f.documentation)):
                f.set("mutability", Mutability.CREATE_ONLY, rid)

"""Rules that classify fields from what the schema and its text say, apart from updates:
output-only values, input-only values, secrets, server defaults, references between resources."""

from __future__ import annotations

import re

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import FieldType, Mutability
from codegen.providers.gcp.rules.context import GcpContext, singular_candidates, upper_first
from codegen.providers.gcp.rules.text import behaviours
from codegen.providers.gcp.shapes import GcpFieldShape

# Fields every Google API fills in itself (AIP-148 standard fields, compute's common ones).
STANDARD_OUTPUT = (
    "kind",
    "id",
    "selfLink",
    "selfLinkWithId",
    "creationTimestamp",
    "createTime",
    "updateTime",
    "deleteTime",
    "uid",
)
_SERVER_TIME = re.compile(
    r"\b(creation|modification|update|deletion|delete|last modified) (time|timestamp)\b"
    r"|\btime (at which|when) \w+( \w+){0,4} (was|is|were) (created|updated|modified|deleted)\b",
    re.I,
)
_RESERVED = re.compile(r"^(\[output only\] )?reserved for future use\b", re.I)
_SECRET_NAME = re.compile(
    r"(password|passphrase|secret|secretKey|secretValue|privateKey|privateKeyData|rawKey|sharedKey|credentials?)$",
    re.I,
)
_DEFAULT = re.compile(
    r"\b(default|defaults|defaulted|if (not|un)(specified|set)|if (you )?(do not|don't) specify"
    r"|if (this field is |it is )?(not|un)(set|specified|provided)|if omitted|when omitted"
    r"|selected by (google|the server)|chosen by the server|(is|are) "
    r"(assigned|chosen|selected|allocated) automatically)\b",
    re.I,
)
_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")
_URL = re.compile(r"\b(url|urls|uri|uris|selflink|partial url|resource name|reference)\b", re.I)


def unset(f: FieldDraft) -> bool:
    return "mutability" not in f.provenance


def _read_only(f: FieldDraft, rid: str) -> None:
    if unset(f):
        f.set("mutability", Mutability.READ_ONLY, rid)


@rule("gcp.output-only")
def output_only(ctx: GcpContext) -> None:
    """A field the schema marks ``readOnly``, or whose description says "Output only" /
    "[Output Only]" / "(output only)", is set by the server: read-only."""
    rid = source("gcp.output-only")
    for resource, facts in ctx.resources():
        props = ctx.properties({"$ref": facts.schema})
        for name, f in resource.fields.items():
            if props.get(name, {}).get("readOnly") or behaviours(f.documentation).output_only:
                _read_only(f, rid)


@rule("gcp.standard-output-fields")
def standard_output(ctx: GcpContext) -> None:
    """Fields every Google API fills in itself — ``kind``, ``id``, ``selfLink``,
    ``creationTimestamp``, ``createTime``, ``updateTime``, ``uid`` — creation / modification /
    deletion times ("The modification time of the bucket"), and fields "Reserved for future
    use" are read-only even where the text forgets to say so (storage)."""
    rid = source("gcp.standard-output-fields")
    for resource, facts in ctx.resources():
        props = ctx.properties({"$ref": facts.schema})
        for name, f in resource.fields.items():
            if name in resource.natural:
                continue
            timestamp = props.get(name, {}).get("format") == "date-time"
            is_time = timestamp and bool(_SERVER_TIME.search(f.documentation))
            if name in STANDARD_OUTPUT or is_time or _RESERVED.search(f.documentation):
                _read_only(f, rid)


@rule("gcp.scope-fields-come-from-path")
def scope_fields(ctx: GcpContext) -> None:
    """A field named like one of the resource's scopes (``region``, ``zone``) is given through
    the call's path and read back as a URL: read-only, never diffed."""
    rid = source("gcp.scope-fields-come-from-path")
    for resource, facts in ctx.resources():
        for name in facts.scope:
            f = resource.fields.get(name)
            if f is not None and name not in resource.natural:
                _read_only(f, rid)


@rule("gcp.input-only-is-write-only")
def write_only(ctx: GcpContext) -> None:
    """A value the description says is "Input only" / "[Input Only]" is sent but never read
    back; so is one the create takes that the resource's schema does not hold (``accountId``):
    write-only, not compared with reads."""
    rid = source("gcp.input-only-is-write-only")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            taken_not_read = f.in_create and not f.in_read
            writable = f.get("mutability") is not Mutability.READ_ONLY
            f.set(
                "write_only",
                writable and (taken_not_read or behaviours(f.documentation).input_only),
                rid,
            )


def _member_names(t: FieldType, depth: int = 2) -> set[str]:
    if depth == 0:
        return set()
    inner = t.item if t.kind in ("list", "map") and t.item else t
    names: set[str] = set()
    for name, member in inner.members:
        names.add(name)
        names |= _member_names(member, depth - 1)
    return names


@rule("gcp.secret-material")
def sensitive(ctx: GcpContext) -> None:
    """Discovery has no sensitive trait: a field named for secret material (``…password``,
    ``…Secret``, ``secretKey``, ``privateKeyData``, ``rawKey``, ``sharedKey``, ``credentials``), or
    holding such a member (a customer-supplied encryption key's ``rawKey``, IAP's
    ``oauth2ClientSecret``), is sensitive and never printed."""
    rid = source("gcp.secret-material")
    for resource, _ in ctx.resources():
        for name, f in resource.fields.items():
            names = {name} | _member_names(f.type)
            f.set("sensitive", any(_SECRET_NAME.search(n) for n in names), rid)


@rule("gcp.documented-default")
def server_default(ctx: GcpContext) -> None:
    """An optional create field that reads return and whose text speaks of a default ("If
    unspecified, the value defaults to 1460", "The default is INGRESS") is filled in by the
    server when left unset: not diffed while the desired value is unset."""
    rid = source("gcp.documented-default")
    for resource, _ in ctx.resources():
        tags = resource.tags.field if resource.tags else None
        for name, f in resource.fields.items():
            candidate = f.in_create and f.in_read and not f.get("required") and name != tags
            writable = f.get("mutability") is not Mutability.READ_ONLY
            f.set(
                "server_default",
                candidate and writable and bool(_DEFAULT.search(f.documentation)),
                rid,
            )


def _target(ctx: GcpContext, resource: ResourceDraft, f: FieldDraft) -> str | None:
    """The resource a URL-valued field points at: the one its name spells (``network`` ->
    Network, ``healthChecks`` -> HealthCheck), or the more specific one its text names (a
    TargetPool's ``healthChecks``: "The URL of the HttpHealthCheck resource"), when its text
    speaks of a URL or reference."""
    item = f.type.item if f.type.kind == "list" and f.type.item else f.type
    if item.kind != "string" or not _URL.search(f.documentation):
        return None
    for candidate in singular_candidates(f.name):
        name = upper_first(candidate)
        # the text may name a more specific kind: "The URL of the HttpHealthCheck resource"
        spelled: list[str] = [w for w in _CAMEL.findall(f.documentation) if w.endswith(name)]
        for target in (*spelled, name):
            if target in ctx.draft.resources and target != resource.name:
                return target
    return None


@rule("gcp.url-fields-reference-resources")
def references(ctx: GcpContext) -> None:
    """A string (or list of strings) named after another resource of the API whose text speaks
    of its URL, selfLink or resource name (a Subnetwork's ``network``: "URL of the network to
    which this subnetwork belongs") refers to that resource, by its selfLink."""
    rid = source("gcp.url-fields-reference-resources")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            target = _target(ctx, resource, f)
            if target is not None:
                f.set("references", target, rid)


@rule("gcp.lists-of-references-are-unordered")
def unordered(ctx: GcpContext) -> None:
    """A list of references (a TargetPool's ``instances``, ``healthChecks``) or of labels is a
    set: compared as a multiset, whatever order the server returns."""
    rid = source("gcp.lists-of-references-are-unordered")
    for resource, facts in ctx.resources():
        paired = {
            f for op, fields in facts.carriers.items() if op in facts.partners for f in fields
        }
        for name, f in resource.fields.items():
            if f.type.kind == "list" and (f.get("references") or name in paired):
                f.set("unordered", True, rid)


_READ_AS = re.compile(r"\bwhen reading an? \w+,? the API (?:always )?returns the ([\w ]+)", re.I)
_NAMED_PATH = re.compile(r"/([a-z][A-Za-z]+)/[a-z]+(?:-[a-z]+)*-name\b")


@rule("gcp.read-returns-referenced-member")
def read_as_member(ctx: GcpContext) -> None:
    """A field that takes another resource's URL among other forms (a forwarding rule's
    ``IPAddress``: "regions/region/addresses/address-name") and whose text says reads return
    something else ("When reading an IPAddress, the API always returns the IP address number")
    refers to that resource, and is read back as its member the text names (the Address's
    ``address``): the task sends that member, so its read-back is not a change."""
    rid = source("gcp.read-returns-referenced-member")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            said = _READ_AS.search(f.documentation)
            if said is None or f.get("references"):
                continue
            for collection in _NAMED_PATH.findall(f.documentation):
                targets = [upper_first(c) for c in singular_candidates(collection)]
                target = next(
                    (ctx.draft.resources[t] for t in targets if t in ctx.draft.resources), None
                )
                member = next(
                    (w for w in said.group(1).split() if target and w in target.fields), None
                )
                if target is not None and member is not None:
                    f.set("references", target.name, rid)
                    f.set_call(GcpFieldShape, "reference_member", member, rid)
                    break

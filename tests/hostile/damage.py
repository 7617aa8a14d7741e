"""Damaged inputs: each must end in exit 2 naming the file and the place (``Expected``).

Built as edits of the toy service model, its waiters and paginators, the toy discovery document
and a toy overlay: truncation, wrong types, dangling and recursive references, duplicate keys,
deep nesting, and waiters / paginators botocore would refuse only later, with a traceback.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

from tests.hostile.corpus import CorpusCase, Expected
from tests.hostile.harness import (
    AWS_OVERLAY,
    GCP_OVERLAY,
    PAGINATORS,
    WAITERS,
    Case,
    aws_files,
    gcp_files,
)
from tests.test_rules_gcp import toy_document
from tests.toy_model import TOY

SERVICE, WAITERS_FILE, PAGES, DOCUMENT, OVERLAY = (
    "service-2.json", "waiters-2.json", "paginators-1.json", "discovery.json", "toy.yaml")
DEEP = 100_000  # far past any recursion limit


def _model(edit: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    model = copy.deepcopy(TOY)
    edit(model)
    return aws_files(model)


def _waiters(edit: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    waiters = copy.deepcopy(WAITERS)
    edit(waiters)
    return aws_files(waiters=waiters)


def _pages(edit: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    pages = copy.deepcopy(PAGINATORS)
    edit(pages)
    return aws_files(paginators=pages)


def _document(edit: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    doc = copy.deepcopy(toy_document())  # its parameter dicts are shared module constants
    edit(doc)
    return gcp_files(doc)


def _shapes(m: dict[str, Any]) -> dict[str, Any]:
    return m["shapes"]


def _acceptor(w: dict[str, Any]) -> dict[str, Any]:
    return w["waiters"]["WidgetAvailable"]["acceptors"][0]


def _chain(m: dict[str, Any]) -> None:
    """A chain of distinct structures, each holding the next, deeper than any recursion limit."""
    n = 5_000
    for i in range(n):
        members = {"Next": {"shape": f"Deep{i + 1}"}} if i + 1 < n else {"Leaf": {"shape": "String"}}
        m["shapes"][f"Deep{i}"] = {"type": "structure", "members": members}
    m["shapes"]["Widget"]["members"]["Deep"] = {"shape": "Deep0"}
    m["shapes"]["CreateWidgetRequest"]["members"]["Deep"] = {"shape": "Deep0"}


def _gcp_chain() -> dict[str, bytes]:
    """An inline schema nested 300 deep: JSON reads it, the checks must stop it."""
    doc = copy.deepcopy(toy_document())
    doc["schemas"]["Widget"]["properties"]["deep"] = "@DEEP@"
    n = 300
    deep = '{"type": "object", "properties": {"next": ' * n + '{"type": "string"}' + "}}" * n
    return {DOCUMENT: json.dumps(doc).replace('"@DEEP@"', deep).encode()}


def _with_duplicate(payload: bytes, section: str, key: str, stub: dict[str, Any]) -> bytes:
    """The file with ``section`` holding ``key`` twice: a stub first, then the real entry
    (JSON allows it; a plain parser keeps the last one without a word)."""
    text = payload.decode()
    opening = f'"{section}": {{'
    assert opening in text
    return text.replace(opening, opening + json.dumps(key) + ": " + json.dumps(stub) + ",", 1).encode()


def _truncations(name: str, files: dict[str, bytes], provider: str, overlay: str) -> Iterator[CorpusCase]:
    payload = files[name]
    for fraction in (0.0, 0.01, 0.5, 0.99):
        cut = dict(files, **{name: payload[: int(len(payload) * fraction)]})
        yield CorpusCase(Case(f"truncated-{name}-{fraction}", provider, cut, overlay, name), Expected(name, ""))


def aws_model_damage() -> Iterator[tuple[str, dict[str, bytes], str]]:
    """(name, files, the place the error must name)."""
    s = _shapes
    yield "operations-not-object", _model(lambda m: m.update(operations=[])), "/operations"
    yield "shapes-not-object", _model(lambda m: m.update(shapes="x")), "/shapes"
    yield "metadata-missing", _model(lambda m: m.pop("metadata")), "/metadata"
    yield "shape-type-number", _model(lambda m: s(m)["Widget"].update(type=5)), "/shapes/Widget/type"
    yield "shape-type-unknown", _model(lambda m: s(m)["Widget"].update(type="tuple")), "/shapes/Widget/type"
    yield "members-list", _model(lambda m: s(m)["Widget"].update(members=[])), "/shapes/Widget/members"
    yield "member-ref-string", _model(lambda m: s(m)["Widget"]["members"].update(Size="String")), "/shapes/Widget/members/Size"
    yield "required-string", _model(lambda m: s(m)["CreateWidgetRequest"].update(required="Size")), "/shapes/CreateWidgetRequest/required"
    yield "required-number", _model(lambda m: s(m)["CreateWidgetRequest"].update(required=[5])), "/shapes/CreateWidgetRequest/required/0"
    yield "required-unknown-member", _model(lambda m: s(m)["CreateWidgetRequest"].update(required=["Size", "Nope"])), "/shapes/CreateWidgetRequest/required/1"
    yield "documentation-number", _model(lambda m: s(m)["CreateWidgetRequest"]["members"]["Size"].update(documentation=5)), "/shapes/CreateWidgetRequest/members/Size/documentation"
    yield "shape-documentation-list", _model(lambda m: s(m)["Widget"].update(documentation=["x"])), "/shapes/Widget/documentation"
    yield "operation-documentation-object", _model(lambda m: m["operations"]["CreateWidget"].update(documentation={})), "/operations/CreateWidget/documentation"
    yield "enum-string", _model(lambda m: s(m)["ResourceType"].update(enum="widget")), "/shapes/ResourceType/enum"
    yield "enum-numbers", _model(lambda m: s(m)["ResourceType"].update(enum=[1, 2])), "/shapes/ResourceType/enum/0"
    yield "list-member-missing", _model(lambda m: s(m)["TagList"].pop("member")), "/shapes/TagList/member"
    yield "operation-input-string", _model(lambda m: m["operations"]["CreateWidget"].update(input="CreateWidgetRequest")), "/operations/CreateWidget/input"
    yield "errors-not-list", _model(lambda m: m["operations"]["CreateWidget"].update(errors={})), "/operations/CreateWidget/errors"
    yield "idempotency-token-string", _model(lambda m: s(m)["CreateWidgetRequest"]["members"]["ClientToken"].update(idempotencyToken="yes")), "/shapes/CreateWidgetRequest/members/ClientToken/idempotencyToken"
    yield "sensitive-string", _model(lambda m: s(m)["Secret"].update(sensitive="true")), "/shapes/Secret/sensitive"
    yield "dangling-member", _model(lambda m: s(m)["Widget"]["members"].update(Ghost={"shape": "Ghost"})), "/shapes/Widget/members/Ghost/shape"
    yield "dangling-output", _model(lambda m: m["operations"]["CreateWidget"].update(output={"shape": "Ghost"})), "/operations/CreateWidget/output/shape"
    yield "dangling-list-member", _model(lambda m: s(m)["TagList"].update(member={"shape": "Ghost"})), "/shapes/TagList/member/shape"
    yield "deep-json", _model(lambda m: None) | {SERVICE: b'{"metadata": ' + b"[" * DEEP + b"]" * DEEP + b"}"}, ""
    yield "deep-shape-chain", _model(_chain), "/shapes/"
    yield "not-utf8", {**_model(lambda m: None), SERVICE: b'{"metadata": "\xff"}'}, ""
    yield "top-level-list", {**_model(lambda m: None), SERVICE: b"[]"}, ""


def aws_recursive() -> Iterator[tuple[str, dict[str, bytes]]]:
    """Recursive shapes are legal botocore: they must generate (the type stops at the cycle)."""
    s = _shapes
    yield "recursive-member", _model(lambda m: s(m)["Widget"]["members"].update(Self={"shape": "Widget"}))
    yield "recursive-list", _model(lambda m: s(m).update(Loop={"type": "list", "member": {"shape": "Loop"}})
                                    or s(m)["Widget"]["members"].update(Loop={"shape": "Loop"}))
    yield "recursive-pair", _model(lambda m: s(m).update(
        A={"type": "structure", "members": {"B": {"shape": "B"}}},
        B={"type": "structure", "members": {"A": {"shape": "A"}}},
    ) or s(m)["CreateWidgetRequest"]["members"].update(A={"shape": "A"}))


def waiter_damage() -> Iterator[tuple[str, dict[str, bytes], str]]:
    w = "/waiters/WidgetAvailable"
    yield "waiter-version", _waiters(lambda d: d.update(version=1)), "/version"
    yield "waiters-list", _waiters(lambda d: d.update(waiters=[])), "/waiters"
    yield "waiter-unknown-operation", _waiters(lambda d: d["waiters"]["WidgetAvailable"].update(operation="Nope")), w + "/operation"
    yield "acceptors-missing", _waiters(lambda d: d["waiters"]["WidgetAvailable"].pop("acceptors")), w + "/acceptors"
    yield "acceptors-object", _waiters(lambda d: d["waiters"]["WidgetAvailable"].update(acceptors={})), w + "/acceptors"
    yield "acceptor-string", _waiters(lambda d: d["waiters"]["WidgetAvailable"].update(acceptors=["x"])), w + "/acceptors/0"
    yield "matcher-unknown", _waiters(lambda d: _acceptor(d).update(matcher="regex")), w + "/acceptors/0/matcher"
    yield "state-unknown", _waiters(lambda d: _acceptor(d).update(state="maybe")), w + "/acceptors/0/state"
    yield "argument-bad-jmespath", _waiters(lambda d: _acceptor(d).update(argument="Widgets[.State")), w + "/acceptors/0/argument"
    yield "argument-number", _waiters(lambda d: _acceptor(d).update(argument=5)), w + "/acceptors/0/argument"
    yield "expected-missing", _waiters(lambda d: _acceptor(d).pop("expected")), w + "/acceptors/0/expected"
    yield "delay-string", _waiters(lambda d: d["waiters"]["WidgetAvailable"].update(delay="5")), w + "/delay"
    yield "max-attempts-negative", _waiters(lambda d: d["waiters"]["WidgetAvailable"].update(maxAttempts=-1)), w + "/maxAttempts"


def paginator_damage() -> Iterator[tuple[str, dict[str, bytes], str]]:
    p = "/pagination/DescribeWidgets"
    yield "pagination-list", _pages(lambda d: d.update(pagination=[])), "/pagination"
    yield "paginator-unknown-operation", _pages(lambda d: d["pagination"].update(Nope={})), "/pagination/Nope"
    yield "result-key-number", _pages(lambda d: d["pagination"]["DescribeWidgets"].update(result_key=5)), p + "/result_key"
    yield "result-key-bad-jmespath", _pages(lambda d: d["pagination"]["DescribeWidgets"].update(result_key="Widgets[")), p + "/result_key"
    yield "input-token-numbers", _pages(lambda d: d["pagination"]["DescribeWidgets"].update(input_token=[1])), p + "/input_token/0"


def gcp_damage() -> Iterator[tuple[str, dict[str, bytes], str]]:
    wp = "/schemas/Widget/properties"
    methods = "/resources/widgets/methods"
    yield "kind-wrong", _document(lambda d: d.update(kind="api#other")), "/kind"
    yield "schemas-list", _document(lambda d: d.update(schemas=[])), "/schemas"
    yield "property-type-number", _document(lambda d: d["schemas"]["Widget"]["properties"]["size"].update(type=5)), wp + "/size/type"
    yield "dangling-ref", _document(lambda d: d["schemas"]["Widget"]["properties"].update(ghost={"$ref": "Ghost"})), wp + "/ghost/$ref"
    yield "parameter-order-unknown", _document(lambda d: d["resources"]["widgets"]["methods"]["get"].update(parameterOrder=["nope"])), methods + "/get/parameterOrder/0"
    yield "parameter-location", _document(lambda d: d["resources"]["widgets"]["methods"]["get"]["parameters"]["widget"].update(location="body")), methods + "/get/parameters/widget/location"
    yield "methods-list", _document(lambda d: d["resources"]["widgets"].update(methods=[])), "/resources/widgets/methods"
    yield "description-number", _document(lambda d: d["schemas"]["Widget"]["properties"]["size"].update(description=5)), wp + "/size/description"
    yield "enum-string", _document(lambda d: d["schemas"]["Widget"]["properties"]["color"].update(enum="RED")), wp + "/color/enum"
    yield "http-method-missing", _document(lambda d: d["resources"]["widgets"]["methods"]["get"].pop("httpMethod")), methods + "/get/httpMethod"
    yield "path-number", _document(lambda d: d["resources"]["widgets"]["methods"]["get"].update(path=5)), methods + "/get/path"
    yield "properties-list", _document(lambda d: d["schemas"]["Widget"].update(properties=[])), "/schemas/Widget/properties"
    yield "annotations-required-string", _document(lambda d: d["schemas"]["Widget"]["properties"]["name"].update(annotations={"required": "x"})), wp + "/name/annotations/required"
    yield "deep-inline-schema", _gcp_chain(), wp + "/deep"
    yield "deep-json", {DOCUMENT: b'{"kind": ' + b"[" * DEEP + b"]" * DEEP + b"}"}, ""
    yield "read-only-string", _document(lambda d: d["schemas"]["Widget"]["properties"]["id"].update(readOnly="yes")), wp + "/id/readOnly"


def gcp_recursive() -> Iterator[tuple[str, dict[str, bytes]]]:
    yield "gcp-recursive-ref", _document(lambda d: d["schemas"]["Widget"]["properties"].update(parent={"$ref": "Widget"}))
    yield "gcp-recursive-items", _document(lambda d: d["schemas"]["Widget"]["properties"].update(
        children={"type": "array", "items": {"$ref": "Widget"}}))


def overlay_damage() -> Iterator[tuple[str, str | bytes, str]]:
    body = "generate: [Widget]\nresources:\n  Widget:\n"
    yield "overlay-truncated", "generate: [Widg", "line"
    yield "overlay-tab", "generate:\n\t- Widget\n", "line"
    yield "overlay-top-list", "- Widget\n", ""
    yield "overlay-unknown-key", "generat: [Widget]\n", "generat"
    yield "overlay-rename-number", body + "    rename: 5\n", "resources.Widget.rename"
    yield "overlay-primary-string", body + "    identity: {primary: VpcId}\n", "resources.Widget.identity.primary"
    yield "overlay-deep", "generate: " + "[" * DEEP + "]" * DEEP + "\n", ""
    yield "overlay-aliases", "a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=False)) + "generate: *i\n", "generate"
    yield "overlay-duplicate-key", "generate: [Widget]\ngenerate: [Widget]\n", "line 2"
    yield "overlay-generate-unknown", "generate: [Nope]\n", "generate"
    yield "overlay-generate-not-list", "generate: Widget\n", "generate"
    yield "overlay-mutability", body + "    fields:\n      Size: {mutability: sometimes}\n", "resources.Widget.fields.Size.mutability"
    yield "overlay-not-utf8", b"generate: [\xff]\n", ""
    yield "overlay-python-tag", "generate: !!python/object/apply:os.system ['touch PWNED']\n", "line"
    yield "overlay-unknown-field", body + "    fields:\n      Nope: {mutability: mutable}\n", "resources.Widget.fields.Nope"
    yield "overlay-identity-unknown-member", body + "    identity: {primary: [Nope]}\n", "resources.Widget.identity.primary"


def damage_cases() -> Iterator[CorpusCase]:
    for name, files, place in aws_model_damage():
        file = SERVICE
        yield CorpusCase(Case(name, "aws", files, AWS_OVERLAY, file), Expected(file, place))
    for name, files, place in waiter_damage():
        yield CorpusCase(Case(name, "aws", files, AWS_OVERLAY, WAITERS_FILE), Expected(WAITERS_FILE, place))
    for name, files, place in paginator_damage():
        yield CorpusCase(Case(name, "aws", files, AWS_OVERLAY, PAGES), Expected(PAGES, place))
    for name, files, place in gcp_damage():
        yield CorpusCase(Case(f"gcp-{name}", "gcp", files, GCP_OVERLAY, DOCUMENT), Expected(DOCUMENT, place))
    for name, text, place in overlay_damage():
        yield CorpusCase(Case(name, "aws", aws_files(), text, OVERLAY), Expected(OVERLAY, place))
    base = aws_files()
    yield CorpusCase(Case("duplicate-operation", "aws", {**base, SERVICE: _with_duplicate(base[SERVICE], "operations", "CreateWidget", {"name": "CreateWidget"})},
                          AWS_OVERLAY, SERVICE), Expected(SERVICE, "/operations/CreateWidget"))
    gbase = gcp_files()
    yield CorpusCase(Case("gcp-duplicate-schema", "gcp", {DOCUMENT: _with_duplicate(gbase[DOCUMENT], "schemas", "Gadget", {"id": "Gadget"})},
                          GCP_OVERLAY, DOCUMENT), Expected(DOCUMENT, "/schemas/Gadget"))
    for name, files in (*aws_recursive(),):
        yield CorpusCase(Case(name, "aws", files, AWS_OVERLAY, SERVICE))
    for name, files in gcp_recursive():
        yield CorpusCase(Case(name, "gcp", files, GCP_OVERLAY, DOCUMENT))
    yield from collision_cases()
    yield from _truncations(SERVICE, aws_files(), "aws", AWS_OVERLAY)
    yield from _truncations(WAITERS_FILE, aws_files(), "aws", AWS_OVERLAY)
    yield from _truncations(DOCUMENT, gcp_files(), "gcp", GCP_OVERLAY)


def _members(m: dict[str, Any], *names: str, shape: str = "String") -> None:
    for name in names:
        m["shapes"]["CreateWidgetRequest"]["members"][name] = {"shape": shape}
        m["shapes"]["Widget"]["members"][name] = {"shape": shape}


def collision_cases() -> Iterator[CorpusCase]:
    """Names that become one after conversion, or land on the runtime's own: refused, naming both."""
    fields = "resources/Widget/fields/"
    for name, members, place in (
        ("collide-case", ("CidrBlock", "CIDRBlock"), fields + "CIDRBlock"),
        # a key the spec or status has of its own gets the kind's prefix (``Id`` -> ``widgetId``),
        # which then meets a member already named so
        ("collide-status-id", ("Id", "WidgetId"), fields + "WidgetId"),
        ("collide-crd-spec-key", ("Shared", "WidgetShared"), fields + "WidgetShared"),
        ("collide-crd-status-key", ("Conditions", "WidgetConditions"), fields + "WidgetConditions"),
    ):
        files = _model(lambda m, members=members: _members(m, *members))  # type: ignore[misc]
        yield CorpusCase(Case(name, "aws", files, AWS_OVERLAY, SERVICE), Expected(SERVICE, place))
    gcp = _document(lambda d: d["schemas"]["Widget"]["properties"].update(foo_bar={"type": "string"}, fooBar={"type": "string"}))
    yield CorpusCase(Case("gcp-collide-case", "gcp", gcp, GCP_OVERLAY, DOCUMENT), Expected(DOCUMENT, fields + "fooBar"))
    escaped = _document(lambda d: d["schemas"]["Widget"]["properties"].update(id_={"type": "string"}))
    yield CorpusCase(Case("gcp-collide-escaped", "gcp", escaped, GCP_OVERLAY, DOCUMENT), Expected(DOCUMENT, fields + "id_"))
    for runtime_name, place in (("Task", "'Task'"), ("Context", "'Context'"), ("Changes", "'Changes'"),
                                ("Core", "'core'"), ("Operator", "'operator'"), ("ResourceSpec", "'ResourceSpec'"), ("Resource", "'ResourceSpec'")):
        overlay = f"generate: [{runtime_name}]\nresources:\n  Widget:\n    rename: {runtime_name}\n"
        yield CorpusCase(Case(f"collide-runtime-{runtime_name}", "aws", aws_files(), overlay, OVERLAY),
                         Expected(OVERLAY, place))
    two = "generate: [Vpc, VPC]\nresources:\n  Widget:\n    rename: Vpc\n  Gadget:\n    rename: VPC\n"
    yield CorpusCase(Case("collide-classes", "aws", aws_files(), two, OVERLAY), Expected(OVERLAY, "'Vpc'"))

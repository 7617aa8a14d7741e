"""The corpus: hostile and malformed schemas and overlays, generated systematically.

Two families, each a product of small generators rather than hand-written files:

- **payloads x slots**: every payload (code after a closing quote or triple quote, backslashes,
  NUL and control characters, line separators, Jinja syntax, keywords, non-ASCII look-alikes)
  put into every name and documentation slot a schema or overlay has (member, shape, operation,
  waiter, enum, collection, method and parameter names; member, shape, operation and
  property documentation; overlay renames, identities, added fields, tag settings);
- **damage**: truncations, wrong types, dangling and recursive references, duplicate keys, deep
  nesting, bad waiters and paginators, for the service model, its waiters and paginators, the
  discovery document and the overlay.

Each case says where it is (``slot``) and, when it must be refused, what the error must name
(``expect``: a JSON pointer or overlay key).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tests.hostile.harness import (
    AWS_OVERLAY,
    GCP_OVERLAY,
    WAITERS,
    Case,
    aws_files,
    gcp_files,
)
from tests.test_rules_gcp import toy_document
from tests.toy_model import TOY

# Code that creates the canary file PWNED in the working directory, if it ever runs.
RUN = "__import__('os').system('touch PWNED')"
PAYLOADS: dict[str, str] = {
    "triple-double": f'"""+{RUN}+"""',
    "triple-single": f"'''+{RUN}+'''",
    "quote-break": f'x"); {RUN}; ("',
    "squote-break": f"x'); {RUN}; ('",
    "backslashes": 'a\\"""\\\\ end\\',
    "control": "a\x00b\x1b[31mc\x07\rd\x7f",
    "newline-code": f"x\nimport os; {RUN}\n#",
    "jinja": "{{ 7*7 }}{% raw %}{{ cycler.__init__.__globals__.os.system('touch PWNED') }}{%",
    "separators": "a\u2028b\u2029c\x85d\x0ce",
    "keyword": "class",
    "lookalike": "\uff54\uff59\uff50\uff45",  # fullwidth "type": NFKC makes it a builtin
    "dunder": "__init__",
}


@dataclass(frozen=True)
class Expected:
    """A case that must end in exit 2 naming ``place`` (a pointer or key) in ``file``."""

    file: str
    place: str


@dataclass(frozen=True)
class CorpusCase:
    case: Case
    expect: Expected | None = None  # None: exit 2 naming the place, or output that passes


# -- payloads in AWS slots -------------------------------------------------------------------------


def _rename_member(shape: dict[str, Any], old: str, new: str) -> None:
    shape["members"] = {(new if k == old else k): v for k, v in shape["members"].items()}
    if old in shape.get("required", []):
        shape["required"] = [new if r == old else r for r in shape["required"]]


def _rename_operation(model: dict[str, Any], old: str, new: str) -> None:
    model["operations"] = {(new if k == old else k): v for k, v in model["operations"].items()}
    model["operations"][new]["name"] = new


def _aws_slot(name: str, edit: Callable[[dict[str, Any], str], None]) -> Callable[[str], dict[str, bytes]]:
    def build(payload: str) -> dict[str, bytes]:
        model = copy.deepcopy(TOY)
        edit(model, payload)
        return aws_files(model)

    build.__name__ = name
    return build


def _waiter_slot(name: str, edit: Callable[[dict[str, Any], str], None]) -> Callable[[str], dict[str, bytes]]:
    def build(payload: str) -> dict[str, bytes]:
        waiters = copy.deepcopy(WAITERS)
        edit(waiters, payload)
        return aws_files(waiters=waiters)

    build.__name__ = name
    return build


def _required_member(m: dict[str, Any], p: str) -> None:
    # the case: a required create member whose name carries code
    _rename_member(m["shapes"]["CreateWidgetRequest"], "Size", p + "Size")
    _rename_member(m["shapes"]["Widget"], "Size", p + "Size")


def _read_only_member(m: dict[str, Any], p: str) -> None:
    m["shapes"]["Widget"]["members"][p] = {"shape": "String", "documentation": p}


def _update_member(m: dict[str, Any], p: str) -> None:
    _rename_member(m["shapes"]["ModifyWidgetAttributeRequest"], "EnableTurbo", p)
    _rename_member(m["shapes"]["DescribeWidgetAttributeResult"], "EnableTurbo", p)


def _update_operation(m: dict[str, Any], p: str) -> None:
    _rename_operation(m, "ModifyWidgetAttribute", "ModifyWidgetAttribute" + p)


def _shape_name(m: dict[str, Any], p: str) -> None:
    m["shapes"][p] = m["shapes"].pop("WidgetId")
    for shape in m["shapes"].values():
        for ref in [*shape.get("members", {}).values(), shape.get("member", {})]:
            if ref.get("shape") == "WidgetId":
                ref["shape"] = p


AWS_SLOTS = [
    _aws_slot("required-create-member-name", _required_member),
    _aws_slot("read-only-member-name", _read_only_member),
    _aws_slot("update-member-name", _update_member),
    _aws_slot("update-operation-name", _update_operation),
    _aws_slot("shape-name", _shape_name),
    _aws_slot("member-documentation",
              lambda m, p: m["shapes"]["CreateWidgetRequest"]["members"]["Size"].update(documentation=f"<p>{p}</p>")),
    _aws_slot("resource-documentation", lambda m, p: m["shapes"]["Widget"].update(documentation=p)),
    _aws_slot("operation-documentation", lambda m, p: m["operations"]["CreateWidget"].update(documentation=p)),
    _aws_slot("enum-value", lambda m, p: m["shapes"]["ResourceType"].update(enum=["widget", p])),
    _waiter_slot("waiter-name", lambda w, p: w["waiters"].update({p: w["waiters"].pop("WidgetAvailable")})),
    _waiter_slot("waiter-expected", lambda w, p: w["waiters"]["WidgetAvailable"]["acceptors"][0].update(expected=p)),
]


# -- payloads in overlay slots ---------------------------------------------------------------------


def _yaml(value: str) -> str:
    return json.dumps(value)  # a JSON string is a YAML flow scalar


def _overlay_slot(provider: str, name: str, text: Callable[[str], str]) -> Callable[[str], tuple[dict[str, bytes], str]]:
    def build(payload: str) -> tuple[dict[str, bytes], str]:
        files = aws_files() if provider == "aws" else gcp_files()
        return files, text(payload)

    build.__name__ = name
    return build


def _resource(body: str, generate: str = "[Widget]") -> str:
    return f"generate: {generate}\nresources:\n  Widget:\n{body}"


OVERLAY_SLOTS = [
    _overlay_slot("aws", "overlay-rename", lambda p: _resource(f"    rename: {_yaml(p)}\n", f"[{_yaml(p)}]")),
    _overlay_slot("aws", "overlay-identity-primary", lambda p: _resource(f"    identity: {{primary: [{_yaml(p)}]}}\n")),
    _overlay_slot("aws", "overlay-identity-parent", lambda p: _resource(f"    identity: {{parent: [{_yaml(p)}]}}\n")),
    _overlay_slot("aws", "overlay-identity-natural", lambda p: _resource(f"    identity: {{natural: [{_yaml(p)}]}}\n")),
    _overlay_slot("aws", "overlay-added-field",
                  lambda p: _resource(f"    fields:\n      {_yaml(p)}: {{add: true, type: string, mutability: create_only}}\n")),
    _overlay_slot("aws", "overlay-read-name", lambda p: _resource(f"    fields:\n      Size: {{read_name: {_yaml(p)}}}\n")),
    _overlay_slot("aws", "overlay-tags-resource-type", lambda p: _resource(f"    tags: {{resource_type: {_yaml(p)}}}\n")),
    _overlay_slot("gcp", "gcp-overlay-identity-parent", lambda p: _resource(f"    identity: {{parent: [{_yaml(p)}]}}\n")),
]


# -- payloads in GCP slots -------------------------------------------------------------------------


def _gcp_slot(name: str, edit: Callable[[dict[str, Any], str], None]) -> Callable[[str], dict[str, bytes]]:
    def build(payload: str) -> dict[str, bytes]:
        doc = copy.deepcopy(toy_document())  # its parameter dicts are shared module constants
        edit(doc, payload)
        return gcp_files(doc)

    build.__name__ = name
    return build


def _collection_key(d: dict[str, Any], p: str) -> None:
    d["resources"] = {(p if k == "widgets" else k): v for k, v in d["resources"].items()}


def _method_id(d: dict[str, Any], p: str) -> None:
    d["resources"]["widgets"]["methods"]["patch"]["id"] = "toy.widgets.patch" + p


def _widget(d: dict[str, Any]) -> dict[str, Any]:
    return d["schemas"]["Widget"]["properties"]


GCP_SLOTS = [
    _gcp_slot("gcp-property-name", lambda d, p: _widget(d).update({p: {"type": "string", "description": p}})),
    _gcp_slot("gcp-property-description", lambda d, p: _widget(d)["description"].update(description=p)),
    _gcp_slot("gcp-schema-description", lambda d, p: d["schemas"]["Widget"].update(description=p)),
    _gcp_slot("gcp-enum-value", lambda d, p: _widget(d)["color"].update(enum=["RED", p])),
    _gcp_slot("gcp-collection-key", _collection_key),
    _gcp_slot("gcp-method-id", _method_id),
]


def payload_cases() -> Iterator[CorpusCase]:
    for slot in AWS_SLOTS:
        for pname, payload in PAYLOADS.items():
            yield CorpusCase(Case(f"{slot.__name__}/{pname}", "aws", slot(payload), AWS_OVERLAY, slot.__name__))
    for gslot in GCP_SLOTS:
        for pname, payload in PAYLOADS.items():
            yield CorpusCase(Case(f"{gslot.__name__}/{pname}", "gcp", gslot(payload), GCP_OVERLAY, gslot.__name__))
    for oslot in OVERLAY_SLOTS:
        for pname, payload in PAYLOADS.items():
            files, overlay = oslot(payload)
            provider = "gcp" if oslot.__name__.startswith("gcp") else "aws"
            yield CorpusCase(Case(f"{oslot.__name__}/{pname}", provider, files, overlay, oslot.__name__))

"""Judge a CRD's ``x-kubernetes-validations`` on an object (and its old version) the way the
Kubernetes apiserver does, with a real CEL evaluator (cel-python's ``celpy``).

What is emulated, from the apiextensions ``ValidationRule`` documentation:

- The schema and the new object are walked together; the rules of a node run where the new
  object has that node, with ``self`` bound to the node's value.
- A rule that refers to the variable ``oldSelf`` is a *transition rule*. It runs only on an
  update, and only where the old object has the same node (correlated by property name and map
  key; items of a list are not correlated, the generated CRDs have no map-lists), with
  ``oldSelf`` bound to the old value. On a create, or where the node is new, it is skipped:
  this is why ``self == oldSelf`` alone cannot refuse a field being added or removed.
- ``optionalOldSelf`` (a rule opting into evaluation without an old value) is not emulated:
  the helper refuses a rule that sets it rather than judge it wrongly.
- A failing rule reports its ``message`` (or ``failed rule: <rule>``) at the node's path plus
  its ``fieldPath``.
- A property named like a CEL reserved word is seen by rules as ``__word__`` ("Escaping: ...
  namespace -> self.__namespace__"); here every object key is (no generated rule indexes a map
  by such a word).

Not emulated: defaulting (callers pass defaulted objects), the apiserver's CEL types for
formats (a ``date-time`` stays a string here; equality is the same), cost accounting.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import celpy
from celpy import celtypes
from celpy.adapter import json_to_cel

ABSENT: Any = object()  # no such node in the old object (or no old object: a create)


@dataclass(frozen=True)
class Violation:
    path: str
    message: str


_ENV = celpy.Environment()


@cache
def _compiled(rule: str) -> tuple[Any, bool]:
    """The program for a rule, and whether it is a transition rule: whether its syntax tree
    refers to the *variable* ``oldSelf`` (a member named oldSelf, ``self.oldSelf``, is not one)."""
    tree = _ENV.compile(rule)
    transition = any(str(token) == "oldSelf" for node in tree.find_data("ident") for token in node.children)
    return _ENV.program(tree), transition


def is_transition_rule(rule: str) -> bool:
    return _compiled(rule)[1]


def _holds(rule: str, activation: dict[str, Any]) -> bool:
    program, _ = _compiled(rule)
    result = program.evaluate(activation)
    if not isinstance(result, celtypes.BoolType):  # an evaluation error is a broken rule, not a "no"
        raise AssertionError(f"rule {rule!r} gave {result!r}, not a bool")
    return bool(result)


# the words CEL reserves, from the apiextensions ValidationRule documentation
CEL_RESERVED = frozenset({"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for",
                          "function", "if", "import", "let", "loop", "package", "namespace", "return", "var",
                          "void", "while"})


def _escaped(key: str) -> str:
    return f"__{key}__" if key in CEL_RESERVED else key


def _as_cel(value: Any) -> Any:
    """The JSON value as CEL sees it: reserved property names escaped."""
    def escape(v: Any) -> Any:
        if isinstance(v, dict):
            return {_escaped(k): escape(x) for k, x in v.items()}
        return [escape(x) for x in v] if isinstance(v, list) else v
    return json_to_cel(escape(value))


def violations(schema: dict[str, Any], new: Any, old: Any = ABSENT, path: str = "") -> list[Violation]:
    """Every rule of ``schema`` that ``new`` breaks, given ``old`` (``ABSENT`` on a create)."""
    return _violations(schema, new, old, _as_cel(new), ABSENT if old is ABSENT else _as_cel(old), path)


def _violations(schema: dict[str, Any], new: Any, old: Any, cel_new: Any, cel_old: Any, path: str) -> list[Violation]:
    # The objects are converted to CEL values once and walked beside the JSON: converting a
    # large spec again at every node that has rules was most of the cost of judging it.
    found = []
    activation = {"self": cel_new} if old is ABSENT else {"self": cel_new, "oldSelf": cel_old}
    for rule in schema.get("x-kubernetes-validations", []):
        if rule.get("optionalOldSelf"):
            raise NotImplementedError("optionalOldSelf is not emulated")
        if is_transition_rule(rule["rule"]) and old is ABSENT:
            continue  # the apiserver skips a transition rule where there is no old value
        if not _holds(rule["rule"], activation):
            found.append(Violation(path + rule.get("fieldPath", ""), rule.get("message") or f"failed rule: {rule['rule']}"))

    def child(node: dict[str, Any], key: str, where: str) -> list[Violation]:
        has_old = isinstance(old, dict) and key in old
        cel_key = celtypes.StringType(_escaped(key))
        return _violations(node, new[key], old[key] if has_old else ABSENT, cel_new[cel_key],
                           cel_old[cel_key] if has_old else ABSENT, where)

    if isinstance(new, dict):
        for key, member in (schema.get("properties") or {}).items():
            if key in new:
                found += child(member, key, f"{path}.{key}")
        values = schema.get("additionalProperties")
        if isinstance(values, dict):
            for key in new:
                found += child(values, key, f"{path}[{key!r}]")
    if isinstance(new, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(new):
            found += _violations(schema["items"], item, ABSENT, cel_new[index], ABSENT, f"{path}[{index}]")
    return found

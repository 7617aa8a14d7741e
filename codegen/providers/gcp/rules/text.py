"""What Google's API documentation says about a field or a method, read from its plain text.

Discovery descriptions carry the ``google.api.field_behavior`` annotations as words at the
start (``Optional. Output only. Immutable.``) or, in compute, as ``[Output Only]``; and they
say in prose what can change and how ("can be set only at resource creation time", "updated
using setPrivateIpGoogleAccess", "Only routingConfig can be modified"). The converter that
produced them glues words together ("usingpatch", "thesetLabels method"), so method names are
matched inside words, against the methods the resource really has.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

_BEHAVIOUR_PREFIX = re.compile(
    r"^\s*((optional|required|output[ -]only|input[ -]only|immutable|identifier|deprecated)\.\s*)+",
    re.I,
)
_OUTPUT_ONLY = re.compile(
    r"\[output[ -]only\]|(^|[.;]\s)output[ -]only\.|\(output[ -]only\)|\boutput[ -]only\.?$"
    r"|\b(this|the) (field|value|property) is read[ -]only\b",
    re.I,
)
_INPUT_ONLY = re.compile(r"\[input[ -]only\]|(^|[.;]\s)input[ -]only\.", re.I)
_IMMUTABLE = re.compile(r"(^|[.;]\s)immutable\.|\bis immutable\b|\bit'?s immutable\b", re.I)
_CREATE_ONLY = (
    re.compile(r"\bonly (at|during|on|upon|when) (\w+ ){0,3}creat(ion|ing|ed)\b", re.I),
    re.compile(
        r"\bcan only be (set|specified|provided|added|configured|chosen|defined)"
        r" (at|during|on|upon|when) (\w+ ){0,3}creat",
        re.I,
    ),
    re.compile(r"\b(cannot|can not|can't) be (changed|updated|modified|patched|edited)\b", re.I),
    re.compile(r"\bonce (set|created),? (it )?(cannot|can't|can not)\b", re.I),
    re.compile(r"\bused to create (this|the)\b", re.I),  # where it came from: a source image
)
_UPDATE_WORDS = re.compile(r"updat|modif|chang|expand|added|set|edit", re.I)
_LIMIT_SENTENCE = re.compile(
    r"\bonly\b.*\b(can|could|may)( only)? be (updated|modified|changed|edited|patched)\b"
    r"|\bonly\b.*\bfields?\b.*\b(update|updated|modified|changed|edited|patch|update-able)\b"
    r"|\b(update|updates|patch|modify|change|edit)( only)?\b.*\bonly\b.*\bfields?\b"
    r"|\bcan only (update|patch|modify|change|edit)\b|\bonly (update|modify|patch)\b"
    r"|\bcan (update|patch|modify|change|edit) only\b"
    r"|\bthe only (field|fields|update-able|valid)\b",
    re.I,
)
_MASK = re.compile(
    r"update[ _-]?mask|fields? (that are |which are "
    r")?(provided|specified|present|supplied|included|given|set)\b",
    re.I,
)
_FIELD_DOCS = re.compile(r"indicated in the field descriptions?|as noted in the field", re.I)
_METHOD_AFTER = re.compile(
    r"\b(?:using|with|by|via|through|calling|call)\s*(?:(?:the|an|a)\s+)?([A-Za-z]+)"
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def clean(text: str | None) -> str:
    """One line of plain text: whitespace runs collapsed."""
    return " ".join((text or "").split())


def sentences(text: str | None) -> list[str]:
    """The text's sentences, each one line."""
    return [s for s in _SENTENCE.split(clean(text)) if s]


@dataclass(frozen=True)
class Behaviours:
    output_only: bool
    input_only: bool
    immutable: bool
    required: bool


def behaviours(description: str) -> Behaviours:
    """The field behaviours a description states, as the leading words Google's converter
    writes (``Required. Immutable.``) or compute's ``[Output Only]`` / ``[Input Only]``."""
    text = clean(description)
    prefix = _BEHAVIOUR_PREFIX.match(text)
    words = prefix.group(0).lower() if prefix else ""
    return Behaviours(
        output_only=bool(_OUTPUT_ONLY.search(text)),
        input_only="input only" in words or "input-only" in words or bool(_INPUT_ONLY.search(text)),
        immutable="immutable" in words or bool(_IMMUTABLE.search(text)),
        required="required" in words,
    )


def says_create_only(description: str) -> bool:
    """The text says the value is fixed once created ("can be set only at resource creation
    time", "cannot be changed", "Once set, it cannot be updated", "Immutable", "The source image
    used to create this disk")."""
    text = clean(description)
    return behaviours(text).immutable or any(p.search(text) for p in _CREATE_ONLY)


def methods_named(description: str, methods: Collection[str]) -> list[str]:
    """Methods of the resource the text says change the value: "updated using
    setPrivateIpGoogleAccess", "can be updated with apatch request", "modified by thesetLabels
    method" — in sentences that speak of changing something."""
    found: list[str] = []
    for sentence in _SENTENCE.split(clean(description)):
        if not _UPDATE_WORDS.search(sentence):
            continue
        for word in _METHOD_AFTER.findall(sentence):
            for name in _unglued(word):
                if name in methods and name not in found:
                    found.append(name)
    return found


def _unglued(word: str) -> Iterable[str]:
    """``thesetLabels`` -> setLabels; ``apatch`` -> patch; ``patch`` -> patch."""
    yield word
    for article in ("the", "an", "a"):
        if word.startswith(article) and len(word) > len(article):
            yield word[len(article) :]


@dataclass(frozen=True)
class Limit:
    """What an update method's documentation says about the fields it changes."""

    kind: str  # "named" (only these), "field-docs" (as each field's text says), "unnamed"
    fields: tuple[str, ...] = ()


def update_limit(description: str, fields: Collection[str]) -> Limit | None:
    """Read "Only routingConfig can be modified", "you can only patch the network_tier field",
    "You can update only the `display_name` field", "Only certain fields can be updated ... as
    indicated in the field descriptions". Sentences about update masks or merge semantics ("only
    replaces fields that are provided") say the call changes what it is sent: no limit."""
    named: list[str] = []
    limited = field_docs = False
    for sentence in _SENTENCE.split(clean(description)):
        if not _LIMIT_SENTENCE.search(sentence) or _MASK.search(sentence):
            continue
        limited = True
        field_docs = field_docs or bool(_FIELD_DOCS.search(sentence))
        for token in _TOKEN.findall(sentence.replace("`", " ")):
            name = field_name(token, fields)
            if name is not None and name not in named:
                named.append(name)
    if not limited:
        return None
    if field_docs:
        return Limit("field-docs")
    return Limit("named", tuple(named)) if named else Limit("unnamed")


def field_name(token: str, fields: Collection[str]) -> str | None:
    """A word of prose as a field name: itself, or snake_case written camelCase."""
    if token in fields:
        return token
    if "_" in token:
        head, *rest = token.split("_")
        camel = head + "".join(p[:1].upper() + p[1:] for p in rest)
        if camel in fields:
            return camel
    return None

"""English singulars of API nouns, by suffix rules in the style of Rails' and ``inflection``'s
tables (the last rule that matches wins there; here the first, so the list reads from the
specific to the general).

A resource name comes from an operation's noun (``ListAccountAliases``, ``DeleteAccountAlias``);
stripping a final ``s`` blindly makes ``AccountAlia``. Only the last word of a CamelCase noun
is inflected, so ``AccountAliases`` -> ``AccountAlias`` and ``VpcEndpoints`` -> ``VpcEndpoint``.
"""

from __future__ import annotations

import re

# Words whose singular is the word itself (English uncountables and Latin/Greek -s singulars
# common in API nouns).
UNCHANGED = frozenset(
    {
        "alias",
        "analysis",
        "basis",
        "bias",
        "canvas",
        "chassis",
        "data",
        "diagnosis",
        "equipment",
        "gas",
        "information",
        "lens",
        "metadata",
        "news",
        "series",
        "species",
        "status",
        "virus",
        "axis",
        "campus",
        "corpus",
        "census",
        "consensus",
        "bonus",
        "bus",
        "focus",
        "radius",
    }
)

# (pattern on the lower-cased last word, replacement), first match wins: exceptions before the
# general rules they would otherwise fall to.
SINGULAR_RULES: tuple[tuple[str, str], ...] = (
    (r"(alias|status|bus|virus|campus|census|bonus|canvas|gas|lens)es$", r"\1"),
    (r"(vert|ind)ices$", r"\1ex"),
    (r"(matr|append)ices$", r"\1ix"),
    (r"(analy|diagno|parenthe|progno|synop)ses$", r"\1sis"),
    (r"(database|cache|niche|ache|movie|cookie|zombie|calorie|rookie|genie|selfie)s$", r"\1"),
    (r"([^aeiouy]|qu)ies$", r"\1y"),
    (r"(x|ch|ss|sh|zz)es$", r"\1"),
    (r"(her|potat|tomat|ech|vet)oes$", r"\1o"),
    (r"(ss|us|is)$", r"\1"),
    (r"s$", ""),
)
_COMPILED = tuple((re.compile(p), r) for p, r in SINGULAR_RULES)
# the last word of a CamelCase noun: "Aliases" in "AccountAliases", "Cs" in "VPCs" (whose
# singular "C" gives "VPC"), "s" after a digit ("Ipv6s")
_LAST_WORD = re.compile(r"[A-Z]?[a-z]+$")


def singular_word(word: str) -> str:
    """The singular of one lower-case or capitalised word (``Aliases`` -> ``Alias``)."""
    lower = word.lower()
    if lower in UNCHANGED:
        return word
    for pattern, replacement in _COMPILED:
        if pattern.search(lower):
            single = pattern.sub(replacement, lower)
            return _same_case(word, single)
    return word


def singular(noun: str) -> str:
    """The singular of a CamelCase noun: its last word inflected (``AccountAliases`` ->
    ``AccountAlias``, ``IpAddresses`` -> ``IpAddress``, ``Policies`` -> ``Policy``,
    ``VPCs`` -> ``VPC``); a noun that ends in neither is returned as it is."""
    match = _LAST_WORD.search(noun)
    if match is None:
        return noun
    return (noun[: match.start()] + singular_word(match.group(0))) or noun


def _same_case(original: str, single: str) -> str:
    if original[:1].isupper():
        return single[:1].upper() + single[1:]
    return single

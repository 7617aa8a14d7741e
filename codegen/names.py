"""Did-you-mean for every name a user types: services, providers, commands."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from codegen.errors import TasklayerError


def suggestions(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    known = list(dict.fromkeys(known))
    close = difflib.get_close_matches(name, known, n=n, cutoff=0.6)
    folded = [k for k in known if k.casefold() == name.casefold() and k not in close]
    return folded + close


def unknown_name_error(kind: str, name: str, known: Iterable[str], notes: list[str] | None = None,
                       preferred: Iterable[str] = ()) -> TasklayerError:
    """``preferred`` names (the pinned ones) are suggested before other ``known`` names."""
    close = list(dict.fromkeys([*suggestions(name, preferred), *suggestions(name, known)]))[:3]
    hint = [f"did you mean: {', '.join(close)}"] if close else []
    return TasklayerError(f"unknown {kind} {name!r}", notes=hint + (notes or []))

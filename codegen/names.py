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


def unknown_name_error(
    kind: str,
    name: str,
    known: Iterable[str],
    notes: list[str] | None = None,
    preferred: Iterable[str] = (),
) -> TasklayerError:
    """``preferred`` names (the pinned ones) are suggested before other ``known`` names."""
    close = list(dict.fromkeys([*suggestions(name, preferred), *suggestions(name, known)]))[:3]
    hint = [f"did you mean: {', '.join(close)}"] if close else []
    return TasklayerError(f"unknown {kind} {name!r}", notes=hint + (notes or []))


def unpinned_service_error(
    name: str, pinned: Iterable[tuple[str, str]], provider: str | None = None
) -> TasklayerError:
    """``name`` (``lambda``, ``aws/lambda``; bare when ``provider`` is given) is not among the
    ``pinned`` (provider, service) pairs. Every subcommand says the same thing: how to pin it
    when an installed SDK has it, else a guess among real names, the pinned ones first."""
    from codegen.providers.registry import PROVIDERS

    typed_provider, _, service = name.rpartition("/")
    wanted = typed_provider or provider
    providers = [p for p in PROVIDERS if p == wanted or not wanted]
    pinned = list(pinned)
    listed = ", ".join(n if provider else f"{p}/{n}" for p, n in pinned) or "(none)"
    installed = {p: PROVIDERS[p].installed_names() for p in providers}
    has_it = [p for p in providers if service in installed[p]]
    if has_it:
        kind = f"{has_it[0]} service" if len(has_it) == 1 else "service"
        return TasklayerError(
            f"{kind} {service!r} is not pinned",
            notes=[f"pin it with `tasklayer schemas pin {p} {service}`" for p in has_it]
            + [f"pinned: {listed}"],
        )

    def spelled(p: str, n: str) -> str:  # as the user spelled theirs: with a provider or without
        return f"{p}/{n}" if typed_provider else n

    known = [spelled(p, n) for p in providers for n in installed[p]]
    preferred = [spelled(p, n) for p, n in pinned if p in providers]
    kind = f"{provider} service" if provider else "service"
    return unknown_name_error(kind, name, known, preferred=preferred, notes=[f"pinned: {listed}"])

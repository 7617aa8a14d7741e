"""Named annotation rules and the order they run in.

A rule is a small function with an id such as ``aws.delete-input-is-identity``. The id is what
provenance records, so a reader who wonders why ``CidrBlock`` is create-only greps the id and
lands on the function that decided it. Each provider lists its rules, in order, in one tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")


@dataclass(frozen=True)
class Rule(Generic[C]):
    id: str
    apply: Callable[[C], None]

    @property
    def source(self) -> str:
        return source(self.id)

    @property
    def doc(self) -> str:
        return " ".join((self.apply.__doc__ or "").split())

    def __call__(self, ctx: C) -> None:
        self.apply(ctx)


def rule(rule_id: str) -> Callable[[Callable[[C], None]], Rule[C]]:
    """Give a rule function its id."""

    def wrap(fn: Callable[[C], None]) -> Rule[C]:
        return Rule(rule_id, fn)

    return wrap


def check_unique(rules: Sequence[Rule[C]]) -> Sequence[Rule[C]]:
    ids = [r.id for r in rules]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"duplicate rule ids: {sorted(dupes)}")
    return rules


def source(rule_id: str) -> str:
    """Provenance string for a rule id."""
    return f"rule:{rule_id}"

"""Golden scenarios whose fresh sequence may read more at one place than the old runtime did,
each because of a named rule of the safety contract, with the reason; checked, not waived.

An allowance names a scenario and a :class:`Rule`. :func:`judge` compares as
:func:`tests.golden.record.verdict` does; for an allowed scenario that comes out DIFFERENT, the
rule sets aside exactly the extra its reason names (one entry, found by the rule's own pattern)
and the rest must then be identical, shorter or fewer-reads. So:

- a scenario not listed here is judged as before: the same pattern there is DIFFERENT;
- a listed scenario that differs in any other way (a write added, dropped or reordered, a read
  the golden run never made, another poll) is DIFFERENT, with both diffs;
- a listed scenario that no longer needs its allowance (identical, shorter or fewer-reads
  without it) is ``STALE``, which fails too: the list holds only what is still true.

The one rule so far, :data:`PATIENT_LOOK`, covers the 14 network-apply cells where a create
without an idempotency token met a fault before it was committed (``5xx``: the server failed
before committing; ``reset``: the connection dropped before the request was forwarded). The
runtime cannot tell those from a create that committed and whose answer was lost (``5xx-after``,
``lost``), so after every unknown outcome the engine looks for what the attempt made, patiently
(``RetryPolicy.attempts`` looks with backoff: 8 by default), before the attempt ends and before
any create is sent again (DESIGN.md, "Idempotent create under an unknown outcome": "the runtime
finds (by ownership tags and a per-attempt marker written in the create call) before it ever
creates again"; docs/architecture.md, "the create-once state machine": OUTCOME UNKNOWN). The
patience is for eventual consistency: a create that did commit may not be visible to the first
look, and CreateVpc, CreateSubnet, CreateInternetGateway, AllocateAddress, CreateSecurityGroup and
AuthorizeSecurityGroupIngress take no token, so a second create would make a second resource.
The old kOps task looked patiently (its golden cells, stack-apply-*-5xx, hold the same poll); the
old CAPI reconciler did not look in that pass at all and looked once, by the owner's tags, in its
next pass. The engine is one for both faces (issue 21 item 1: no rule of the contract in a face,
the same calls from both faces), so the reconciler now makes the task's patient look; making it
impatient for the reconciler alone would put a create-once rule in a face, and shortening it for
both would shrink the window the task relies on before its next attempt. Where the fault did
commit (the ``5xx-after`` and ``lost`` cells of the same calls) the first look finds it and the
attempt ends in that pass: those cells are shorter than the golden ones.

What it costs, measured with the recorder (one worker, no sleeps): in each of the 14 cells the
whole run still makes fewer calls than the golden run's least count (e.g. CreateVpc#1-5xx: 96
calls, the 8 looks included, against at least 103; AuthorizeSecurityGroupIngress#1-5xx: 106
against at least 119).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklayer_tasks.runtime.contract.ownership import ATTEMPT_TAG
from tests.golden import record
from tests.golden.normalise import line

Calls = list[dict[str, Any]]


@dataclass(frozen=True)
class Rule:
    """Why a scenario may read more at one place, and how to find that extra."""

    name: str
    contract: str
    """The rule of the safety contract that makes the extra calls (where it is written)."""
    reason: str
    set_aside: Callable[[Calls, Calls], Calls | None]
    """(golden, fresh) -> fresh without exactly the extra the rule names; None when the rule's
    pattern is not there (then the allowance does not apply)."""


def _marker(call: dict[str, Any]) -> str | None:
    """The attempt marker (its placeholder) a create call writes among its tags."""
    params = call.get("params", {})
    for key, value in params.items():
        if key.endswith(".Key") and value == ATTEMPT_TAG:
            marker = params.get(key[: -len("Key")] + "Value")
            return str(marker) if marker else None
    return None


def _looks_by(marker: str, call: dict[str, Any]) -> bool:
    """The read filters on the attempt marker ``marker``."""
    params = call.get("params", {})
    for key, value in params.items():
        if key.endswith(".Name") and value == f"tag:{ATTEMPT_TAG}":
            if params.get(key[: -len("Name")] + "Value.1") == marker:
                return True
    return False


def _reads_after(calls: Calls, at: int) -> Calls:
    """The run of reads right after ``calls[at]`` (up to the next write)."""
    run = []
    for call in calls[at + 1 :]:
        if not record.is_read(call):
            break
        run.append(call)
    return run


def patient_look(golden: Calls, fresh: Calls) -> Calls | None:
    """The patient look after the cell's one faulted create: a poll among the reads right after
    it (not after any other write), of a look by the owner's tags and that create's own marker,
    or, for a create that carries no marker (a security group: its group name is unique in its
    VPC), of the very look by identity the golden run made once right after the same fault (its
    next pass's locate). Exactly one such poll, else None."""
    faulted = [
        i
        for i, c in enumerate(fresh)
        if not record.is_read(c) and c.get("fault") in ("5xx", "reset")
    ]
    if len(faulted) != 1:
        return None
    at = faulted[0]
    same = [i for i, c in enumerate(golden) if line(c) == line(fresh[at])]
    if len(same) != 1:
        return None  # the golden run faulted another call there
    golden_singles = {line(c) for c in _reads_after(golden, same[0]) if not record.is_poll(c)}
    marker = _marker(fresh[at])
    found = []
    for offset, call in enumerate(_reads_after(fresh, at), start=at + 1):
        if not record.is_poll(call):
            continue
        text = line({k: v for k, v in call.items() if k != "repeats"})
        marked = record.unmarked(text) is not None
        if marked and marker is not None and _looks_by(marker, call):
            found.append(offset)
        elif not marked and marker is None and text in golden_singles:
            found.append(offset)
    if len(found) != 1:
        return None
    return fresh[: found[0]] + fresh[found[0] + 1 :]


PATIENT_LOOK = Rule(
    name="the patient look after an unknown outcome",
    contract='DESIGN.md, "Idempotent create under an unknown outcome"; docs/architecture.md, '
    '"the create-once state machine" (OUTCOME UNKNOWN)',
    reason="a create without an idempotency token met a fault before committing, which the "
    "runtime cannot tell from a lost answer: the engine looks for what the attempt made "
    "patiently (eventual consistency) before the attempt ends and before it creates again; the "
    "old reconciler waited for its next pass and looked once (see this module's docstring)",
    set_aside=patient_look,
)

# the create and how its attempt is looked for
_LOOKED_FOR = {
    "CreateVpc#1": "by the owner's tag and the attempt's marker (no token)",
    "CreateSubnet#1": "by the owner's tag and the attempt's marker (no token)",
    "CreateSubnet#2": "by the owner's tag and the attempt's marker (no token)",
    "CreateInternetGateway#1": "by the owner's tag and the attempt's marker (no token)",
    "AllocateAddress#1": "by the owner's tag and the attempt's marker (no token)",
    "AuthorizeSecurityGroupIngress#1": "by the owner's tag and the attempt's marker (no token)",
    "CreateSecurityGroup#1": "by its group name in the VPC, unique there (no token, no Name tag)",
}

ALLOWED: dict[str, dict[str, tuple[Rule, str]]] = {
    "fault-matrix": {
        f"network-apply-{call}-{fault}": (PATIENT_LOOK, f"{call.split('#')[0]} looked for {how}")
        for call, how in _LOOKED_FOR.items()
        for fault in ("5xx", "reset")
    },
}


def judge(suite: str, key: str, golden: Calls | None, fresh: Calls | None) -> tuple[str, list[str]]:
    """:func:`record.verdict`, with the scenario's allowance (if any) applied as described
    above: ``allowed`` when its rule's extra set aside leaves a passing verdict, ``STALE`` when
    the scenario passes without it, DIFFERENT otherwise."""
    result, diff = record.verdict(golden, fresh)
    entry = ALLOWED.get(suite, {}).get(key)
    if entry is None or golden is None or fresh is None:
        return result, diff
    rule, note = entry
    if result != "DIFFERENT":
        return "STALE", [f"allowed for {rule.name}, but {result} without it: drop the entry"]
    rest = rule.set_aside(golden, fresh)
    if rest is None:
        return "DIFFERENT", [f"allowed only for {rule.name}, which is not there:", *diff]
    again, notes = record.verdict(golden, rest)
    if again == "DIFFERENT":
        return "DIFFERENT", [f"still different with {rule.name} set aside:", *notes]
    fewer = record.calls_made(golden) - record.calls_made(fresh)
    counted = f"{abs(fewer)} {'fewer' if fewer >= 0 else 'more'} calls than the golden run"
    return "allowed", [
        f"{rule.name} set aside ({note}; {rule.contract}): then {again}",
        *notes,
        f"with it counted at its least ({record.POLL_CALLS} calls): {counted}",
    ]

"""Golden call sequences (issue 21, item 5): the cloud calls each scenario makes, recorded before
the runtime is redesigned, so that after it every sequence can be shown identical or shorter.

    python -m tests.golden.record --check                       # every suite; exit 1 on any DIFFERENT
    python -m tests.golden.record --check --suite fault-matrix  # the whole fault matrix (~315 cells, minutes)
    python -m tests.golden.record --check --suite kops --suite conformance   # the cheap suites
    python -m tests.golden.record --check --suite fault-matrix --match CreateVpc   # some cells only
    python -m tests.golden.record --write [--suite ...] [--match ...]   # (re)record; a selection merges
    python -m tests.golden.record --write --resume --suite fault-matrix  # record only the cells the file lacks

The fault matrix takes seconds per cell (about 40 minutes for all 315 on a loaded 2-core
machine); ``--write`` keeps each cell in the file as it is recorded, so an interrupted recording
is continued with ``--resume``. Cells are recorded round robin over (workload, phase).

Suites, one file each under ``tests/golden/calls/`` (one entry per scenario, sorted; one call per
line, see :mod:`tests.golden.normalise` for what is replaced by placeholders):

``fault-matrix``  every cell of ``bench/fault_matrix.py`` (all workloads, phases and the five fault
                  kinds, one fault each), recorded at the wire by the fault proxy in front of
                  moto_server: every request of the cell, retries included, each marked with the
                  part of the cell it belongs to (setup, the faulted passes, re-apply, delete).
``conformance``   every resource of ``python -m tests.conformance.sweep``, AWS on moto in-process
                  (each request as botocore serialized it, at its ``before-call`` event: the body a
                  query service sends, a REST service's path and XML or JSON body), GCP on the
                  fake (its request log: method id, path, query, body).
``kops``          examples/kops_cluster.py's cluster through the fault proxy (no fault): apply,
                  the converged re-apply, delete.

``--check`` prints per scenario ``identical``, ``shorter`` (a subsequence of the golden one with
fewer calls), ``fewer-reads`` (fewer calls, the same writes in the same order, and reads that
are a sub-multiset of the golden's, some of them earlier: a look moved into an earlier pass;
placeholders compared up to one consistent renumbering, see :func:`fewer_reads`), ``absent``
(the fresh run has no such scenario: a cell of a call no longer made) or ``DIFFERENT`` with a
short diff (a new scenario is DIFFERENT too, and so is any run that adds, drops, repeats or
reorders a write, or makes a read the golden run never made or more often), and exits 1 on any
DIFFERENT.

Allowances (:mod:`tests.golden.allowed`). A scenario listed there with a named rule of the safety
contract and its reason may read more at one place: the rule sets aside exactly the extra it
names and the rest must pass as above (``allowed``); any other difference is still DIFFERENT, the
same pattern in a scenario not listed is DIFFERENT, and a listed scenario that passes without its
allowance is ``STALE``, which fails too. The only rule so far is the engine's patient look after
an unknown outcome, in 14 network-apply cells (the old reconciler looked once, a pass later).

One equivalence between reads, and only one direction of it: a look by the create-once marker
(a read whose params are a golden read's plus a trailing filter on ``tasklayer.dev/create-
attempt``, see :func:`unmarked`) may stand where the golden made that read without the filter.
After a create whose answer was lost the engine looks for what that attempt made by the owner's
tags and the attempt's marker, in the same pass (the kOps task did so before the redesign; the
old reconciler instead looked by the owner's tags alone in its next pass): the same call, its
answer narrowed to what this attempt made, so it can adopt nothing the golden look could not.
A look without the marker where the golden had one is wider and stays DIFFERENT, and a marker
look still needs a golden look to stand for (it is not a new read). Verdicts that used it say
how many such looks they took.

Determinism. The executor runs independent tasks on up to 10 threads, so the wire order of
their calls is the threads' interleaving, not the runtime's decision. The recording therefore
runs every executor with ``max_concurrency=1`` (the conformance sweep already does): the
order is then the scheduler's (dependencies, longest chain first, early listings in free slots —
with one worker there are fewer free slots, so fewer early listings than at 10 workers). Every
executor runs with ``retry_interval=PAUSE``. Its default, 2 s of wall time, made the order
depend on the clock: a task that asked to try again waited while the other tasks ran, unless
one of them took longer than 2 s, so a stack's deletes came in another order when moto was
slow. ``PAUSE`` is longer than any cell (the executor's sleep is a no-op in the recorder, so it
costs nothing): a waiting task is tried again once nothing else is left to run, every time. A
short pause does not do it (at 0.01 s the order changed between two runs of one cell; at 0 the
waiting task is tried after the call in flight, which is deterministic but another schedule
than the golden one). The
fault matrix's cells are enumerated from one-worker clean runs too (the same cells as the
suite's: the mutating calls per phase do not depend on the workers; which of two subnets is
``CreateSubnet#2`` may). A task's own parallel reads (a VPC's separately read attributes, read
at once on their own threads) are still interleaved: within a run of consecutive reads that a
write does not separate, reads are compared in sorted order (``sorted_reads``), i.e. as a
multiset; writes keep their exact order. Polls are timed, not counted: a task polling until
ready or until its deadline (the sweep's is 2 s of wall time) reads as often as the clock lets
it, so three or more identical reads in a row are one entry marked ``"repeats": "3+"``. Such a
poll stands for at least three calls, and is compared soundly (:func:`shorter`,
:func:`fewer_reads`): a fresh poll matches only a golden poll of the same read at the same place
(after the same writes; both counts are the clock's, so a poll against a poll is taken as
equal), never a golden single or double read there (at least three calls against one or two is
more, not identical or shorter: DIFFERENT, even though the golden run's poll may just have been
ready sooner) and never a golden poll elsewhere; a golden poll read once or twice is fewer
calls. Calls are counted with each poll at its least. Recording twice gives identical files
(checked: ``--check`` right after ``--write``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.golden.normalise import Normaliser, line

HERE = Path(__file__).resolve().parent
CALLS = HERE / "calls"
SUITES = ("conformance", "fault-matrix", "kops")
READ_PREFIXES = ("Describe", "Get", "List", "Head")
# the executor's retry_interval in every recording (its default is 2 s of wall time, whose end
# depends on how fast the other tasks' calls are answered): longer than any cell, so a task that
# asked to try again is tried when nothing else is left to run, never because a timer ran out
# (the executor's sleep is a no-op here, so the pause costs no time)
PAUSE = 3600.0
Scenarios = dict[str, list[dict[str, Any]]]
Raw = dict[str, list[Callable[[], Any]]]


def path_of(suite: str) -> Path:
    return CALLS / f"{suite}.json"


# -- shaping calls ---------------------------------------------------------------------------------


def is_read(call: dict[str, Any]) -> bool:
    op = str(call["op"]).rsplit(".", 1)[-1]
    if op.startswith(READ_PREFIXES) or op in ("get", "list", "aggregatedList", "wait"):
        return True
    return op.startswith(("get", "list")) and call.get("http") == "GET"


def sorted_reads(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run of consecutive reads sorted (a task's parallel reads arrive in any order); the
    writes, and where they fall among the reads, unchanged."""
    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    for call in calls:
        if is_read(call):
            run.append(call)
            continue
        out += collapsed(sorted(run, key=line))
        run = []
        out.append(call)
    return out + collapsed(sorted(run, key=line))


def collapsed(reads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Three or more identical reads in a row become one entry marked ``"repeats": "3+"``: a
    poll until ready or until the task's deadline (the sweep's is 2 s of wall time), whose count
    is the clock's, not the runtime's. Two stay two (a redundant read is behaviour)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(reads):
        j = i
        while j < len(reads) and line(reads[j]) == line(reads[i]):
            j += 1
        out += [{**reads[i], "repeats": "3+"}] if j - i >= 3 else reads[i:j]
        i = j
    return out


def wire_call(normaliser: Normaliser, segment: str, request: Any) -> dict[str, Any]:
    """A fault proxy ``WireRequest`` as an entry."""
    call: dict[str, Any] = {"seg": segment, "op": request.action or "(unnamed)"}
    if request.path:
        call["path"] = normaliser.text(request.path)
    call["params"] = normaliser.params(request.params)
    if request.fault is not None:
        call["fault"] = request.fault.value
    if request.replayed:
        call["replayed"] = True
    if request.status != 200:
        call["status"] = request.status
    return call


# -- the fault matrix -------------------------------------------------------------------------------


def one_worker_workloads() -> dict[str, Any]:
    from testbed.campaign import WORKLOADS

    return {name: type(f"{w.__name__}OneWorker", (w,), {"workers": 1, "retry_interval": PAUSE})
            for name, w in WORKLOADS.items()}


def record_fault_matrix(match: str | tuple[str, ...] = "", say: Callable[[str], None] = print,
                        skip: frozenset[str] = frozenset(),
                        each: Callable[[str, list[dict[str, Any]]], None] | None = None) -> Scenarios:
    """Every cell whose id contains ``match`` (or one of them), but those in ``skip``; ``each``
    is given every cell as it is recorded."""
    from testbed.campaign import Lab, cells, no_sdk_backoff, run_cell
    from testbed.proxy import FaultKind

    workloads = one_worker_workloads()
    out: Scenarios = {}
    lab = Lab().start()
    try:
        with no_sdk_backoff():
            fragments = (match,) if isinstance(match, str) else match
            chosen = [c for c in cells(lab, tuple(FaultKind), workloads=workloads)
                      if any(f in str(c) for f in fragments) and str(c) not in skip]
            # round robin over (workload, phase), so that a partial recording covers them all
            # (each cell starts from an emptied moto and proxy: the order changes no cell)
            place: dict[tuple[str, str], int] = {}
            ranked = []
            for cell in chosen:
                group = (cell.workload, cell.phase)
                place[group] = place.get(group, 0) + 1
                ranked.append((place[group], len(ranked), cell))
            chosen = [cell for *_, cell in sorted(ranked, key=lambda r: r[:2])]
            say(f"fault-matrix: {len(chosen)} cells")
            for cell in chosen:
                outcome = run_cell(lab, cell, workloads[cell.workload])
                normaliser = Normaliser()
                calls = [wire_call(normaliser, segment, r) for segment, r in outcome.wire]
                out[str(cell)] = sorted_reads(calls)
                if each is not None:
                    each(str(cell), out[str(cell)])
    finally:
        lab.stop()
    return out


# -- the kOps example cluster ------------------------------------------------------------------------


def record_kops(match: str = "", say: Callable[[str], None] = print) -> Scenarios:
    from examples.kops_cluster import kops_cluster
    from tasklayer_tasks.runtime import CloudTarget, Executor
    from testbed.campaign import Lab, no_sdk_backoff

    cluster = "demo.example.com"
    lab = Lab().start()
    out: Scenarios = {}
    try:
        with no_sdk_backoff():
            lab.reset()
            context = lab.context(cluster)
            normaliser = Normaliser()  # one for the three: the ids of the apply are the delete's
            steps = (("apply", "run"), ("re-apply", "run"), ("delete", "delete"))
            calls: list[dict[str, Any]] = []
            for segment, verb in steps:
                lab.proxy.clear()
                executor = Executor(CloudTarget(context), sleep=lambda _: None, max_concurrency=1,
                                    retry_interval=PAUSE)
                getattr(executor, verb)(kops_cluster(cluster))
                calls += sorted_reads([wire_call(normaliser, segment, r) for r in list(lab.proxy.requests)])
            for segment, _ in steps:
                if match in f"kops-{segment}":
                    out[f"kops-{segment}"] = [c for c in calls if c["seg"] == segment]
    finally:
        lab.stop()
    say(f"kops: {len(out)} scenarios")
    return out


# -- the conformance sweep ----------------------------------------------------------------------------


def aws_call(normaliser: Normaliser, model: Any, request: dict[str, Any]) -> dict[str, Any]:
    """A botocore request dict (before-call: serialized, not yet signed) as an entry."""
    from testbed.rest import xml_params

    service = model.service_model.service_name
    protocol = model.service_model.protocol
    call: dict[str, Any] = {"op": f"{service}.{model.name}"}
    body = request.get("body")
    if protocol in ("query", "ec2"):
        params = dict(body) if isinstance(body, dict) else {}
    else:
        call["http"] = request.get("method", "")
        call["path"] = normaliser.text(str(request.get("url_path", "")))
        raw = body if isinstance(body, bytes) else str(body or "").encode()
        if protocol == "rest-xml":
            params = xml_params(raw) if raw else {}
        else:
            params = json.loads(raw) if raw.strip() else {}
        query = request.get("query_string") or {}
        if query:
            params = {**params, **{f"?{k}": v for k, v in dict(query).items()}}
    call["params"] = normaliser.params(params)
    return call


def gcp_call(normaliser: Normaliser, request: Any) -> dict[str, Any]:
    call: dict[str, Any] = {"op": request.method_id, "http": request.http_method,
                            "path": normaliser.text(request.path)}
    query = {f"?{k}": v for k, v in sorted(dict(request.query or {}).items())}
    body = request.body if isinstance(request.body, dict) else ({"(body)": request.body} if request.body else {})
    call["params"] = normaliser.params({**query, **body})
    return call


@contextmanager
def recording_clouds(out: Raw) -> Iterator[None]:
    """The sweep's clouds, each remembering per resource (``begin``'s key) what it sent."""
    from tests.conformance import clouds

    made: list[Any] = []

    class RecordingAws(clouds.AwsCloud):
        def __init__(self) -> None:
            super().__init__()
            self.key = ""
            self.session.register("before-call", self._remember)

        def _remember(self, model: Any, params: Any, **_: Any) -> None:
            if self.key:  # the request dict is reused: shape it now
                shaped = _snapshot(params)
                out[self.key].append(lambda m=model, p=shaped: ("aws", m, p))  # type: ignore[misc]

        def begin(self, key: str) -> None:
            super().begin(key)
            self.key = key
            out[key] = []

    class RecordingGcp(clouds.GcpCloud):
        def __init__(self, documents: Any) -> None:
            super().__init__(documents)
            self.key, self.since = "", 0
            made.append(self)

        def begin(self, key: str) -> None:
            super().begin(key)
            self._flush()
            self.key, self.since = key, len(self.fake.log)
            out[key] = []

        def _flush(self) -> None:
            if self.key:
                out[self.key] += [lambda r=r: ("gcp", r) for r in self.fake.log[self.since:]]  # type: ignore[misc]
                self.since = len(self.fake.log)

        def mark(self) -> int:
            self._flush()
            return super().mark()

    saved = clouds.AwsCloud, clouds.GcpCloud
    clouds.AwsCloud, clouds.GcpCloud = RecordingAws, RecordingGcp  # type: ignore[misc]
    try:
        yield
        for cloud in made:  # the last resource's cleanup
            cloud._flush()
    finally:
        clouds.AwsCloud, clouds.GcpCloud = saved  # type: ignore[misc]


def _snapshot(request: dict[str, Any]) -> dict[str, Any]:
    body = request.get("body")
    return {"body": dict(body) if isinstance(body, dict) else body, "method": request.get("method"),
            "url_path": request.get("url_path"), "query_string": dict(request.get("query_string") or {})}


def record_conformance(match: str = "", say: Callable[[str], None] = print) -> Scenarios:
    from tests.conformance.sweep import sweep

    raw: Raw = {}
    args = argparse.Namespace(provider=None, service=None, resource=None, verbose=False)
    with recording_clouds(raw):
        sweep(args, say=lambda _: None)
    out = shaped(raw, match)
    say(f"conformance: {len(out)} resources")
    return out


def shaped(raw: Raw, match: str = "") -> Scenarios:
    """What ``recording_clouds`` kept, as entries (tests/conformance/test_sweep.py records its
    own sweep this way, so the suite runs the sweep once)."""
    out: Scenarios = {}
    for key, thunks in raw.items():
        if match not in key:
            continue
        normaliser = Normaliser()
        calls = []
        for thunk in thunks:
            made = thunk()
            calls.append(aws_call(normaliser, made[1], made[2]) if made[0] == "aws" else gcp_call(normaliser, made[1]))
        out[key] = sorted_reads(calls)
    return out


RECORDERS: dict[str, Callable[..., Scenarios]] = {
    "conformance": record_conformance,
    "fault-matrix": record_fault_matrix,
    "kops": record_kops,
}


# -- files and comparison -----------------------------------------------------------------------------


def dumps(scenarios: Scenarios) -> str:
    """Sorted scenarios, one call per line: valid JSON that diffs line by line."""
    parts = []
    for key in sorted(scenarios):
        calls = ",\n".join(f"    {line(c)}" for c in scenarios[key])
        parts.append(f"  {json.dumps(key)}: [\n{calls}\n  ]" if calls else f"  {json.dumps(key)}: []")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def load(suite: str) -> Scenarios:
    path = path_of(suite)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


# a poll: three or more identical reads in a row, one entry (see :func:`collapsed`); it stands
# for at least POLL_CALLS calls, how many more is the clock's
POLL_CALLS = 3


def is_poll(call: dict[str, Any]) -> bool:
    return call.get("repeats") == "3+"


def calls_made(calls: list[dict[str, Any]]) -> int:
    """The calls a scenario made, a poll counted at its least (``POLL_CALLS``)."""
    return sum(POLL_CALLS if is_poll(c) else 1 for c in calls)


def _read_line(call: dict[str, Any]) -> str:
    return line({k: v for k, v in call.items() if k != "repeats"})


# the create-once marker as a trailing filter of a look: the engine looks for what a create whose
# answer was lost made by the attempt's marker too (the old reconciler looked by name and owner
# in its next pass); see :func:`unmarked`
_MARKER = re.compile(
    r', "Filter\.(\d+)\.Name": "tag:tasklayer\.dev/create-attempt", '
    r'"Filter\.\1\.Value\.1": "<uuid-\d+>"(?=\}\}$)'
)


def unmarked(text: str) -> str | None:
    """A look's line without its trailing attempt-marker filter, or None when it has none. A
    look by the marker is the same call as the look without it, narrowed to what this attempt
    made (a subset of what the golden look returned): it may stand where the golden made the
    unmarked look, never the other way round."""
    plain = _MARKER.sub("", text)
    return plain if plain != text else None


Token = tuple[str, str, str | None]


def _tokens(calls: list[dict[str, Any]], golden: bool) -> list[Token]:
    """("write" | "read" | "poll", line without the mark, the read's unmarked line or None). A
    golden poll is a poll followed by ``POLL_CALLS`` single reads: a fresh run may read it as a
    poll (a poll against a poll: both counts are the clock's, taken as equal) or once or twice
    (fewer calls than the golden's at least three), never both."""
    out: list[Token] = []
    for call in calls:
        if not is_read(call):
            out.append(("write", line(call), None))
        elif is_poll(call):
            out.append(("poll", _read_line(call), None))
            if golden:
                out += [("read", _read_line(call), None)] * POLL_CALLS
        else:
            out.append(("read", line(call), None if golden else unmarked(line(call))))
    return out


def _matches(fresh: Token, golden: Token) -> bool:
    return fresh[0] == golden[0] and golden[1] in (fresh[1], fresh[2])


def is_subsequence(short: list[Token], long: list[Token]) -> bool:
    """Each of ``short`` matched in order (earliest first, which is optimal) in ``long``."""
    it = iter(long)
    return all(any(_matches(item, other) for other in it) for item in short)


def shorter(golden: list[dict[str, Any]], fresh: list[dict[str, Any]]) -> bool:
    """``shorter``: the fresh run's calls are a subsequence of the golden's and fewer. Polls are
    compared soundly: a fresh poll (at least three reads) matches only a golden poll of the same
    read at the same place (a poll against a poll: both timed), never a golden single or double
    read there (that would be more calls, not fewer); a golden poll may be matched by the same
    read made once or twice (fewer calls). Fewer: counted with each poll at its least."""
    if not is_subsequence(_tokens(fresh, golden=False), _tokens(golden, golden=True)):
        return False
    return calls_made(fresh) < calls_made(golden)


_PLACEHOLDER = re.compile(r"<([a-z0-9-]+?)-(\d+)>")


def renamed(calls: list[dict[str, Any]]) -> list[tuple[bool, str]]:
    """(is a write, line) per call, the placeholders renumbered per kind in order of first
    appearance in the writes, then in the reads (the recorder numbers them in order of first
    appearance in the whole scenario, so a read moved earlier renumbers the ids it names)."""
    lines = [(not is_read(c), line(c)) for c in calls]
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    writes_first = [e for e in lines if e[0]] + [e for e in lines if not e[0]]
    for _, text in writes_first:
        for match in _PLACEHOLDER.finditer(text):
            if match.group(0) not in names:
                kind = match.group(1)
                counts[kind] = counts.get(kind, 0) + 1
                names[match.group(0)] = f"<{kind}-{counts[kind]}>"
    return [(write, _PLACEHOLDER.sub(lambda m: names[m.group(0)], text)) for write, text in lines]


def _places(calls: list[dict[str, Any]]) -> tuple[list[str], Counter[str], Counter[tuple[int, str]]]:
    """The writes in order, the single reads (a multiset), and the polls by place (the number of
    writes before them), all renamed (:func:`renamed`), a poll's line without its mark."""
    writes: list[str] = []
    reads: Counter[str] = Counter()
    polls: Counter[tuple[int, str]] = Counter()
    for call, (write, text) in zip(calls, renamed(calls), strict=True):
        if write:
            writes.append(text)
        elif is_poll(call):
            polls[(len(writes), text.replace(', "repeats": "3+"', ""))] += 1
        else:
            reads[text] += 1
    return writes, reads, polls


def fewer_reads(golden: list[dict[str, Any]], fresh: list[dict[str, Any]]) -> bool:
    """``fewer-reads``: the fresh run makes fewer calls, the same writes (every mutating call, its
    fault and status included) in the same order, and reads that are a sub-multiset of the
    golden's (each read as often or less often), all up to one consistent renumbering of the
    placeholders (:func:`renamed`); single reads may fall elsewhere between the writes. A poll
    does not move: each poll of the fresh run is a poll of the golden's at the same place (after
    the same writes); a golden poll no fresh poll matches counts as ``POLL_CALLS`` single reads.
    Calls are counted with each poll at its least. No write is added, dropped, repeated or
    reordered and no read the golden run never made is made."""
    if calls_made(fresh) >= calls_made(golden):
        return False
    old_writes, old_reads, old_polls = _places(golden)
    new_writes, new_reads, new_polls = _places(fresh)
    if old_writes != new_writes or new_polls - old_polls:
        return False
    for (_, text), n in (old_polls - new_polls).items():
        old_reads[text] += n * POLL_CALLS
    left = new_reads - old_reads  # reads the golden made less often, or never
    spare = old_reads - new_reads
    for text, n in left.items():  # a look by the marker where the golden looked without it
        plain = unmarked(text)
        if plain is None or spare[plain] < n:
            return False
        spare[plain] -= n
    return True


def verdict(golden: list[dict[str, Any]] | None, fresh: list[dict[str, Any]] | None) -> tuple[str, list[str]]:
    """('identical' | 'shorter' | 'fewer-reads' | 'absent' | 'DIFFERENT', diff lines)."""
    if fresh is None:
        return "absent", []
    new = [line(c) for c in fresh]
    if golden is None:
        return "DIFFERENT", ["(no golden entry: a new scenario)"] + [f"+{c}" for c in new[:10]]
    old = [line(c) for c in golden]
    if new == old:
        return "identical", []
    marked = sum(unmarked(t) is not None and t not in old for t in new)
    note = [f"{marked} looks by the attempt's marker where the golden looked without it"] if marked else []
    if shorter(golden, fresh):
        return "shorter", [f"{calls_made(golden) - calls_made(fresh)} fewer calls", *note]
    if fewer_reads(golden, fresh):
        fewer = calls_made(golden) - calls_made(fresh)
        return "fewer-reads", [f"{fewer} fewer calls: the same writes in order, fewer reads", *note]
    diff = list(difflib.unified_diff(old, new, "golden", "fresh", n=1, lineterm=""))[2:]
    return "DIFFERENT", diff[:24] + ([f"... {len(diff) - 24} more diff lines"] if len(diff) > 24 else [])


FAILING = ("DIFFERENT", "STALE")  # verdicts that fail a check (STALE: see tests.golden.allowed)


def check(suite: str, fresh: Scenarios, partial: bool, say: Callable[[str], None] = print) -> int:
    """Print each scenario's verdict (allowances applied: :func:`tests.golden.allowed.judge`);
    the number of DIFFERENT and STALE ones."""
    from tests.golden import allowed  # it builds on this module's comparisons

    golden = load(suite)
    keys = sorted(set(fresh) | (set() if partial else set(golden)))
    counts: dict[str, int] = {}
    for key in keys:
        result, diff = allowed.judge(suite, key, golden.get(key), fresh.get(key))
        counts[result] = counts.get(result, 0) + 1
        say(f"{suite} {key}: {result}")
        for text in diff:
            say(f"    {text}")
    say(f"{suite}: " + ", ".join(f"{n} {r}" for r, n in sorted(counts.items())))
    return sum(counts.get(r, 0) for r in FAILING)


def write(suite: str, fresh: Scenarios, partial: bool) -> None:
    scenarios = {**load(suite), **fresh} if partial else fresh
    CALLS.mkdir(parents=True, exist_ok=True)
    path_of(suite).write_text(dumps(scenarios), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare a fresh recording with the files")
    mode.add_argument("--write", action="store_true", help="rewrite the files from a fresh recording")
    parser.add_argument("--suite", choices=SUITES, action="append", help="only this suite (repeatable)")
    parser.add_argument("--match", default="", help="only scenarios whose id contains this")
    parser.add_argument("--resume", action="store_true",
                        help="with --write --suite fault-matrix: record only the cells the file lacks")
    args = parser.parse_args(argv)

    different = 0
    for suite in args.suite or SUITES:
        started = time.perf_counter()
        if suite == "fault-matrix" and args.write:  # minutes: each cell is kept as it is recorded
            skip = frozenset(load(suite)) if args.resume else frozenset()
            fresh = record_fault_matrix(args.match, skip=skip,
                                        each=lambda key, calls, suite=suite: write(suite, {key: calls}, partial=True))
            if not (args.match or args.resume):
                write(suite, fresh, partial=False)
            print(f"{suite}: recorded {len(fresh)} cells in {time.perf_counter() - started:.1f}s")
            continue
        fresh = RECORDERS[suite](args.match)
        print(f"{suite}: recorded {len(fresh)} scenarios, {sum(map(len, fresh.values()))} calls "
              f"in {time.perf_counter() - started:.1f}s")
        if args.write:
            write(suite, fresh, partial=bool(args.match))
            print(f"{suite}: wrote {path_of(suite).relative_to(HERE.parents[1])}")
        else:
            different += check(suite, fresh, partial=bool(args.match))
    return 1 if different else 0


if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parents[1] / "generated")]
    sys.exit(main())

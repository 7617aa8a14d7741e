"""Runs a graph of tasks: each task as soon as what it depends on is done, bounded concurrency,
a deadline per task, quiet retries of "try again later", and a clear error for a dependency
cycle.

``delete(tasks)`` deletes exactly the tasks it is given, in reverse dependency order among them;
their dependencies are only located (read), never deleted. A resource still in use is waited
for only while something this delete removed may still be going away; in use by anything else,
it fails at once, saying so.

``run(tasks, prune=True)`` also deletes what the cluster owns, of the kinds the tasks use, that
no task declares (:mod:`.prune`); a dry run names them under "Will delete resources" (what
``prune=True`` would delete); without ``prune`` nothing is deleted. Each run reads every
resource type once (:mod:`..contract.snapshot`) unless ``batched_reads=False``.

Both return a :class:`~.report.Report`: what each task found and did, the reads and writes the
run sent, its time; each change is logged at INFO on the ``tasklayer`` logger as it is made.
The graph it runs is :func:`.graph.dependency_graph`'s, which :mod:`.graph` also draws."""

from __future__ import annotations

import graphlib
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from ..contract.errors import DependencyCycleError, InUseError, TaskError, TryAgainLater
from .cloud import look_early
from .graph import dependency_graph
from .prune import orphans
from .report import Recording, Report
from .targets import Target
from .task import Task, require_create_fields
from .translate import owner_of, pass_core

log = logging.getLogger("tasklayer")


def _check_acyclic(graph: dict[Task, list[Task]]) -> None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as err:
        raise DependencyCycleError([t.key for t in err.args[1]]) from None


def _chain_lengths(dependents: dict[Task, list[Task]]) -> dict[Task, int]:
    """Per task, the most tasks on one path through what waits for it (itself included): when
    more tasks are ready than may run, the ones heading the longest chains start first, so the
    critical path is never queued behind a leaf (list scheduling by critical path)."""
    length: dict[Task, int] = {}

    def walk(task: Task) -> int:
        if task not in length:
            length[task] = 1 + max((walk(d) for d in dependents[task]), default=0)
        return length[task]

    for task in dependents:
        walk(task)
    return length


def _wait_for_a_listing(schedule: _Schedule) -> None:
    """Nothing runs but early listings: wait until one of them is done."""
    done_listing, _ = wait(schedule.listing, return_when=FIRST_COMPLETED)
    for future in done_listing:
        del schedule.listing[future]


@dataclass
class _Schedule:
    """One :meth:`Executor._waves`: each task pending, running, waiting to try again or done,
    the early listings not begun and those running, and the failures so far."""

    blockers: dict[Task, list[Task]]  # what must be done before each task begins
    urgency: dict[Task, int]  # the longest chain each task heads (:func:`_chain_lengths`)
    listings: dict[str, list[Task]]  # kinds whose early listing has not begun
    pending: set[Task]
    listing: dict[Future[Any], str] = field(default_factory=dict)
    done: set[Task] = field(default_factory=set)
    waiting: set[Task] = field(default_factory=set)
    running: dict[Future[Any], Task] = field(default_factory=dict)
    deadlines: dict[Task, float] = field(default_factory=dict)
    failures: list[TaskError] = field(default_factory=list)

    @classmethod
    def of(
        cls, graph: dict[Task, list[Task]], reverse: bool, early: dict[str, list[Task]] | None
    ) -> _Schedule:
        """``graph``'s tasks, each blocked by what it depends on (``reverse``: by what depends
        on it)."""
        blockers = (
            graph
            if not reverse
            else {t: [o for o, deps in graph.items() if t in deps] for t in graph}
        )
        dependents: dict[Task, list[Task]] = {t: [] for t in blockers}
        for task, before in blockers.items():
            for blocker in before:
                dependents[blocker].append(task)
        return cls(blockers, _chain_lengths(dependents), dict(early or {}), set(graph))

    def ready(self) -> list[Task]:
        """The tasks whose blockers are done, neither running nor waiting, most urgent first."""
        busy = set(self.running.values())
        return sorted(
            (
                t
                for t in self.pending
                if t not in self.waiting
                and t not in busy
                and all(b in self.done for b in self.blockers[t])
            ),
            key=lambda t: (-self.urgency[t], t.key),
        )

    def free(self, slots: int) -> int:
        """How many of ``slots`` neither a task nor a listing holds."""
        return slots - len(self.running) - len(self.listing)

    def drop_begun_listings(self) -> None:
        """A kind one of whose tasks has begun lists for itself."""
        begun = set(self.running.values()) | self.done | self.waiting
        for kind in [k for k, ts in self.listings.items() if not begun.isdisjoint(ts)]:
            del self.listings[kind]

    def kinds_by_urgency(self) -> list[str]:
        """The kinds not listed yet, those with the most urgent tasks first."""
        return sorted(self.listings, key=lambda k: -max(self.urgency[t] for t in self.listings[k]))

    def raise_failures(self) -> None:
        if len(self.failures) == 1:
            raise self.failures[0]
        if self.failures:
            raise TaskError("; ".join(str(f) for f in self.failures))


@dataclass
class Executor:
    """kOps' ``fi`` executor over generated tasks: ``run`` applies a list of tasks as a graph,
    ``delete`` deletes exactly a list, each returning a :class:`~.report.Report`. ``target`` is
    where changes go (:class:`~.targets.CloudTarget`, or :class:`~.targets.DryRunTarget` for a
    plan); the other fields tune scheduling (concurrency, deadlines, pauses) and reads, and
    ``clock`` / ``sleep`` are there for tests."""

    target: Target
    """Where changes go: a :class:`~.targets.CloudTarget`, or a :class:`~.targets.DryRunTarget`."""
    # one that reads several attributes reads them at once: a VPC's two DNS attributes
    max_concurrency: int = 10
    """Tasks at once: Terraform's default parallelism, well under EC2's request rates."""
    task_deadline: float = 600.0
    """Seconds a task may keep asking to try again later before the run fails it."""
    retry_interval: float = 2.0
    """Seconds a task that asked to try again later waits while the others go on."""
    in_use_grace: float = 300.0
    """Seconds a delete waits for what it just removed to go away (a dependency still in use)."""
    clock: Callable[[], float] = time.monotonic
    """The clock deadlines are measured on (a test's fake, else ``time.monotonic``)."""
    sleep: Callable[[float], None] = time.sleep
    """How the executor pauses (a test's fake, else ``time.sleep``)."""
    attempts: dict[str, int] = field(default_factory=dict)
    """Per task key, how many times its step was tried (filled in by the runs)."""
    batched_reads: bool = True
    """One listing per resource type a run (``runtime.contract.snapshot``), not a read per task."""
    early_listings: bool = True
    """With ``batched_reads``, each kind's listing begun as soon as a worker is free, not when
    the kind's first task gets to it."""
    pruned: list[str] = field(default_factory=list)
    """The keys of what the last ``run(prune=True)`` (or dry run) found to prune."""

    def run(self, tasks: Sequence[Task], prune: bool = False) -> Report:
        """Apply every task, each after the tasks it depends on; then what the cluster owns that
        no task declares is deleted when ``prune`` (a dry run plans it; see the module). The
        report says what each task found and did (what was pruned too), and the calls made."""
        graph = dependency_graph(tasks)
        _check_acyclic(graph)
        require_create_fields(graph)  # every task's missing create fields, before any call
        context = self.target.context
        recording, started, calls = Recording(self.target), self.clock(), self._calls()
        with self._reads():
            early = (
                self._early_listings(graph) if self.batched_reads and self.early_listings else {}
            )
            self._waves(graph, lambda t: t.run(context, recording), reverse=False, early=early)
            found: list[Task] = []
            if prune or self.target.dry_run:  # listing what to prune costs reads: only then
                found = orphans(context, list(graph))
                self.pruned = sorted(t.key for t in found)
            if found:
                self._delete(found, recording)
        # the caller's tasks in the caller's order, then the dependencies it did not list
        given = set(tasks)
        listed = [*tasks, *(t for t in graph if t not in given)]
        return self._report(recording, [*listed, *found], started, calls)

    def _report(
        self, recording: Recording, tasks: list[Task], started: float, before: tuple[int, int]
    ) -> Report:
        reads, writes = self._calls()
        calls = (reads - before[0], writes - before[1])
        return recording.report(tasks, calls, self.clock() - started)

    def _calls(self) -> tuple[int, int]:
        """Reads and writes sent so far on the target's context (none without one)."""
        context = self.target.context
        return (0, 0) if context is None else context.calls.now()

    def _early_listings(self, graph: dict[Task, list[Task]]) -> dict[str, list[Task]]:
        """The tasks of each kind (and place) the pass lists by owner: their listing can be made
        before any of them runs, off the dependency chain (a subnet's listing while its VPC is
        being created; on a converged pass, every listing at once)."""
        kinds: dict[str, list[Task]] = {}
        for task in graph:
            if not task.shared:
                place = sorted(task.placement().items())
                kinds.setdefault(f"{task.spec.service}:{task.spec.name}:{place!r}", []).append(task)
        return kinds

    def _list_early(self, tasks: list[Task]) -> None:
        """List the tasks' kind by its owner into the pass's snapshot, then make the reads their
        finds will need that the listing cannot answer (:func:`.cloud.look_early`)."""
        for task in tasks:
            self._look_early(task, listing=task is tasks[0])

    def _look_early(self, task: Task, listing: bool) -> None:
        """Only an optimisation: whatever goes wrong here, the task reads for itself when it
        runs and reports it."""
        context = self.target.context
        try:
            if listing:
                pass_core(task, context).listed_owned(owner_of(task, context))
            look_early(task, context)
        except Exception as err:  # the task's own read says it properly
            log.debug("%s: reading early failed: %s", task.key, err)

    def _reads(self) -> AbstractContextManager[object]:
        context = self.target.context
        if not self.batched_reads or context is None:
            return nullcontext()
        return context.batched_reads()

    def delete(self, tasks: Sequence[Task]) -> Report:
        """Delete exactly these tasks' resources, each before the tasks (among them) it depends
        on. Dependencies not in ``tasks`` are located, so children can be found inside them, and
        left alone. The report has a line for each of ``tasks``."""
        recording, started, calls = Recording(self.target), self.clock(), self._calls()
        with self._reads():
            self._delete(tasks, recording)
        return self._report(recording, list(tasks), started, calls)

    def _delete(self, tasks: Sequence[Task], target: Target) -> None:
        graph = dependency_graph(tasks)
        _check_acyclic(graph)
        context = self.target.context
        self._waves(graph, lambda t: t.locate(context), reverse=False)
        chosen = set(tasks)
        scope = {t: [d for d in graph[t] if d in chosen] for t in chosen}
        dependents = {t: [o for o, deps in scope.items() if t in deps] for t in scope}
        deleted_at: dict[Task, float] = {}

        def delete(task: Task) -> None:
            try:
                removed_one = task.delete(context, target, located=True)
            except InUseError as err:
                removed = [deleted_at[d] for d in dependents[task] if d in deleted_at]
                if removed and self.clock() - max(removed) < self.in_use_grace:
                    raise TryAgainLater(
                        f"{task.key}: still in use while what depended on it goes: {err}"
                    ) from None
                blocking = pass_core(task, context).blockers(task.observed)
                what = ", ".join(blocking) if blocking else "something"
                raise TaskError(
                    f"{task.key}: in use by {what} this delete was not asked to remove: {err}"
                ) from None
            if removed_one:
                deleted_at[task] = self.clock()

        self._waves(scope, delete, reverse=True)

    def _waves(
        self,
        graph: dict[Task, list[Task]],
        step: Callable[[Task], object],
        reverse: bool,
        early: dict[str, list[Task]] | None = None,
    ) -> None:
        """Run ``step`` on every task, each as soon as its blockers are done (no waves: a slow
        task holds back only what depends on it), at most ``max_concurrency`` at a time. A task
        that says "try again later" waits ``retry_interval`` while the others go on. Among ready
        tasks, those heading the longest chains go first. ``early``: kinds whose listing is made
        in a slot no ready task needs, before any of their tasks begins, the kinds with the most
        urgent tasks first."""
        schedule = _Schedule.of(graph, reverse, early)
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            while schedule.pending and (schedule.running or not schedule.failures):
                if not schedule.failures:
                    self._start_ready(pool, schedule, step)
                    self._start_listings(pool, schedule)
                if not schedule.running and schedule.listing:
                    _wait_for_a_listing(schedule)
                    continue
                if not schedule.running:
                    self.sleep(self.retry_interval)  # only waiting tasks are left
                    schedule.waiting.clear()
                    continue
                self._settle_finished(schedule)
        schedule.raise_failures()

    def _start_ready(
        self, pool: ThreadPoolExecutor, schedule: _Schedule, step: Callable[[Task], object]
    ) -> None:
        """Start the ready tasks, the most urgent first, in the slots free."""
        ready = schedule.ready()
        for task in ready[: schedule.free(self.max_concurrency)]:
            schedule.running[pool.submit(self._attempt, task, step)] = task

    def _start_listings(self, pool: ThreadPoolExecutor, schedule: _Schedule) -> None:
        """Begin early listings in the slots the ready tasks left free, the kinds with the most
        urgent tasks first; a kind one of whose tasks has begun lists for itself."""
        schedule.drop_begun_listings()
        free = schedule.free(self.max_concurrency)
        for kind in schedule.kinds_by_urgency():
            if free <= 0:
                break
            schedule.listing[pool.submit(self._list_early, schedule.listings.pop(kind))] = kind
            free -= 1

    def _settle_finished(self, schedule: _Schedule) -> None:
        """Wait for a task or a listing to finish (with tasks waiting to try again, at most
        ``retry_interval``: then their pause is over) and settle what finished."""
        timeout = self.retry_interval if schedule.waiting else None
        in_flight: list[Future[Any]] = [*schedule.running, *schedule.listing]
        finished, _ = wait(in_flight, timeout=timeout, return_when=FIRST_COMPLETED)
        if not finished:
            schedule.waiting.clear()  # their pause is over
        for future in finished:
            if future in schedule.listing:
                del schedule.listing[future]  # a free slot; its tasks find what it listed
                continue
            task = schedule.running.pop(future)
            self._settle(
                task,
                future.result(),
                schedule.pending,
                schedule.done,
                schedule.waiting,
                schedule.deadlines,
                schedule.failures,
            )

    def _settle(
        self,
        task: Task,
        outcome: Exception | None,
        pending: set[Task],
        done: set[Task],
        waiting: set[Task],
        deadlines: dict[Task, float],
        failures: list[TaskError],
    ) -> None:
        self.attempts[task.key] = self.attempts.get(task.key, 0) + 1
        if outcome is None:
            pending.discard(task)
            done.add(task)
        elif isinstance(outcome, TryAgainLater):
            deadline = deadlines.setdefault(task, self.clock() + self.task_deadline)
            if self.clock() > deadline:
                failures.append(
                    TaskError(f"{task.key}: gave up after {self.task_deadline:.0f}s: {outcome}")
                )
            else:
                log.debug("%s: will try again: %s", task.key, outcome)
                waiting.add(task)
                context = self.target.context
                snapshots = context.snapshots if context is not None else None
                if snapshots is not None:  # what it waits for must be read afresh
                    snapshots.invalidate(task.spec.service, task.spec.listings_touched())
        elif isinstance(outcome, TaskError):
            failures.append(outcome)
        else:  # an error with no text of its own (a StopIteration) is named by its type
            failures.append(TaskError(f"{task.key}: {str(outcome) or type(outcome).__name__}"))

    @staticmethod
    def _attempt(task: Task, step: Callable[[Task], object]) -> Exception | None:
        try:
            step(task)
            return None
        except TryAgainLater as err:
            return err
        except Exception as err:  # reported with the task's name, after the wave
            return err

"""One resource's conformance cycle: apply -> re-apply (0 writes) -> change each mutable field
(exactly its routed call) -> a create-only change refused before any call -> delete (its delete
call) -> gone. Each step's evidence is kept, so the invariants can be checked apart from the
verdict (``test_sweep.py`` does)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .blueprint import Builder, Node, Unsatisfiable, instantiate
from .resources import Resource
from .values import refs_in

CHANGE_VARIANTS = (1, 2, 3, 0)  # the first that differs from what the cloud holds is declared


@dataclass
class Outcome:
    status: str  # "pass", "fail" or "skipped"
    step: str | None = None
    reason: str | None = None
    notes: list[str] = field(default_factory=list)  # what could not be checked, and why
    evidence: dict[str, Any] = field(default_factory=dict)  # writes per step, by operation
    seconds: float = 0.0


class StepFailed(Exception):
    def __init__(self, step: str, reason: str, skipped: bool = False) -> None:
        super().__init__(reason)
        self.step, self.reason, self.skipped = step, reason, skipped


def short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return (text[:297] + "...") if len(text) > 300 else text or type(error).__name__


class Cycle:
    def __init__(self, cloud: Any, builder: Builder, resource: Resource) -> None:
        self.cloud, self.builder, self.resource = cloud, builder, resource
        self.spec = resource.spec
        self.outcome = Outcome("pass")
        self.evidence = self.outcome.evidence

    # -- running tasks ---------------------------------------------------------------------------

    def executor(self) -> Any:
        from tasklayer_tasks.runtime import CloudTarget, Executor

        return Executor(
            CloudTarget(self.cloud.context),
            # one task at a time: moto's ids (which failure reasons quote) are drawn in the same
            # order each run, and the failures of sibling parents are joined in the same order,
            # so a full sweep writes the same report every time (concurrency has its own tests)
            max_concurrency=1,
            sleep=lambda _: None,
            retry_interval=0.01,
            task_deadline=2.0,  # a resource that is not ready in 2s against a fake never will be
        )

    def step(self, name: str, action: Any) -> Counter[str]:
        """Run ``action``; the writes it made. A failure is this step's, with its cause."""
        since = self.cloud.mark()
        try:
            action()
        except StepFailed:
            raise
        except Exception as err:  # the runtime's errors carry the task and the call
            raise StepFailed(name, short(err), skipped=self.cloud.lacks(err)) from None
        problems = self.cloud.request_problems(since)
        if problems:
            raise StepFailed(name, f"a request the API would refuse: {problems[0]}")
        return self.cloud.writes(since)

    # -- the cycle -------------------------------------------------------------------------------

    def run(self) -> Outcome:
        started = time.perf_counter()
        node = None
        try:
            try:
                node = self.builder.build(self.resource)
            except Unsatisfiable as err:
                raise StepFailed("synthesise", str(err)) from None
            self.apply(node)
            observed = self.reapply(node)
            declared, observed = self.changes(node, observed)
            self.create_only(node, declared, observed)
            self.delete(node, declared)
        except StepFailed as failed:
            status = "skipped" if failed.skipped else "fail"
            self.outcome.status, self.outcome.step = status, failed.step
            self.outcome.reason = failed.reason
        finally:
            if node is not None:
                self.cleanup(node)
            self.outcome.seconds = time.perf_counter() - started
        return self.outcome

    def apply(self, node: Node) -> None:
        _, tasks = instantiate(node)
        writes = self.step("apply", lambda tasks=tasks: self.executor().run(tasks))
        self.evidence["apply"] = dict(writes)
        create = self.spec.create.operation
        if writes[create] != 1:
            raise StepFailed("apply", f"{create} made {writes[create]} times, not once")

    def reapply(self, node: Node) -> dict[str, Any]:
        task, tasks = instantiate(node)
        writes = self.step("re-apply", lambda: self.executor().run(tasks))
        self.evidence["re-apply"] = dict(writes)
        if writes:
            raise StepFailed("re-apply", f"{sum(writes.values())} writes: {dict(writes)}")
        return dict(task.observed)

    def changes(self, node: Node, observed: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Each mutable field changed in turn, the earlier changes kept declared: (what was
        declared, task attribute -> value; the state last read)."""
        changed: dict[str, dict[str, int]] = {}
        declared: dict[str, Any] = {}
        self.evidence["changes"] = changed
        for f in self.spec.fields:
            if f.mutability.value != "mutable" or f.attr == "name":
                continue
            why_not = self._unchangeable(f)
            if why_not:
                self.outcome.notes.append(f"{f.attr}: not changed ({why_not})")
                continue
            result = self._change(node, f, declared, observed, self._routed(f))
            if result is None:
                continue
            value, writes, observed = result
            changed[f.attr] = dict(writes)
            declared[f.attr] = value
        return declared, observed

    def _routed(self, f: Any) -> Counter[str]:
        return routed_writes(self.spec, f)

    def _parents_made(self, node: Node, writes: Counter[str]) -> Counter[str]:
        """``writes`` without the creates of parents a changed value names for the first time
        (a profile's role): those are the parent's apply, not the change's."""
        creates = {p.resource.spec.create.operation for p in _ancestors(node) if p.resource.spec.create}
        return Counter({op: n for op, n in writes.items() if op not in creates or op in self._all_routed()})

    def _all_routed(self) -> set[str]:
        return {op for f in self.spec.fields if f.mutability.value == "mutable" for op in self._routed(f)}

    def _change(
        self, node: Node, f: Any, declared: dict[str, Any], observed: dict[str, Any], routed: Counter[str]
    ) -> tuple[Any, Counter[str], dict[str, Any]] | None:
        """Declare another valid value of ``f``; the writes must be exactly one ``expected``.
        A value the cloud already holds writes nothing: the next one is tried (fields read by a
        separate call are not in the state read before)."""

        step = f"change {f.attr}"
        expected = " + ".join(routed)
        for value in self._other_values(node, f, observed):
            task, tasks = instantiate(node, {**declared, f.attr: value})
            since = self.cloud.mark()
            try:
                writes = self.step(step, lambda tasks=tasks: self.executor().run(tasks))
            except StepFailed as failed:
                writes = self._parents_made(node, self.cloud.writes(since))
                if failed.skipped:
                    self.outcome.notes.append(f"{f.attr}: not changed ({self.cloud.label} lacks {expected})")
                    return None
                if "still differs" in failed.reason and writes == routed:
                    self.outcome.notes.append(
                        f"{f.attr}: {expected} sent; {self.cloud.label} does not keep it (read back unchanged)"
                    )
                    return None
                raise
            writes = self._parents_made(node, writes)
            if not writes and observed.get(f.name) is None:
                continue  # the cloud held this value already
            if writes != routed:
                raise StepFailed(step, f"wrote {dict(writes)}; the routed call is {expected}")
            return value, writes, dict(task.observed)
        self.outcome.notes.append(f"{f.attr}: not changed (no other valid value)")
        return None

    def _other_values(self, node: Node, f: Any, observed: dict[str, Any]) -> list[Any]:
        from tasklayer_tasks.runtime.contract.diff import differs

        if f.is_tags:
            return [{"sweep-change": "1"}]
        schema = self.cloud.schema_of(self.resource, f.name)
        if schema is None:  # neither the create nor the routed call has the member
            raise StepFailed(
                f"change {f.attr}", f"{f.update_operation} has no member {f.update_member or f.name}"
            )
        held = observed.get(f.name)
        out: list[Any] = []
        for variant in CHANGE_VARIANTS:
            value = node.synth.value(f.name, schema, variant)
            if refs_in(value) and value == node.values.get(f.attr):
                continue  # names the parents the apply made: no change (the read shows their ids)
            if held is None and value is False and self.cloud.provider == "gcp":
                # GCP answers proto3 JSON, which leaves out a false boolean: an absent one is
                # false. Chosen on the cloud's form, not on whichever runtime observed it, so
                # the value declared is the same whatever runtime the sweep runs
                continue
            if value not in out and differs(self.spec, f.name, held, value):
                out.append(value)
        return out

    def _unchangeable(self, f: Any) -> str | None:
        if f.write_only:
            return "write-only: never read back, so never compared"
        if f.name in (*self.spec.natural, *self.spec.primary):
            return "it names the resource: another value is another resource"
        if f.references:
            return f"refers to {f.references}: a second one is not synthesised"
        if _names_another(f):
            return "an id of another resource, which the annotation does not name"
        if f.is_tags and (self.spec.tags is None or self.spec.tags.tag_operation is None):
            return "no tag call"
        return None

    def create_only(self, node: Node, declared: dict[str, Any], observed: dict[str, Any]) -> None:
        from tasklayer_tasks.runtime import CannotChangeFieldError

        chosen = self._create_only_field(node, observed)
        if chosen is None:
            self.outcome.notes.append("no create-only field to change")
            return
        f, value = chosen
        _, tasks = instantiate(node, {**declared, f.attr: value})
        since = self.cloud.mark()
        try:
            self.executor().run(tasks)
        except CannotChangeFieldError as err:
            writes = self.cloud.writes(since)
            self.evidence["create-only"] = {"field": f.attr, "writes": dict(writes)}
            if writes:
                raise StepFailed("create-only change", f"refused, but after writes {dict(writes)}") from err
            if f.attr not in str(err):
                raise StepFailed("create-only change", f"refused without naming {f.attr}: {err}") from err
            return
        except Exception as err:
            raise StepFailed("create-only change", f"{f.attr}: {short(err)}") from None
        writes = self.cloud.writes(since)
        raise StepFailed("create-only change", f"{f.attr} not refused; wrote {dict(writes)}")

    def _create_only_field(self, node: Node, observed: dict[str, Any]) -> tuple[Any, Any] | None:
        """A create-only field the apply declared (else one it could have) and another valid
        value of it. Identity members are not among them: another name is another resource."""
        identity = {*self.spec.natural, *self.spec.parent, *self.spec.primary}
        fixed = [
            f
            for f in self.spec.fields
            if f.mutability.value in ("create_only", "unknown")
            and f.in_create
            and not (f.write_only or f.references or f.is_tags or f.attr == "name")
            and not _names_another(f)
            and f.name not in identity
        ]
        fixed.sort(key=lambda f: f.attr not in node.values)  # one the apply declared, first
        for f in fixed:
            if f.attr not in node.values and observed.get(f.name) is None:
                continue  # what the cloud holds is not known: a value may be no change at all
            for value in self._other_values(node, f, observed):
                return f, value
        return None

    def delete(self, node: Node, declared: dict[str, Any]) -> None:
        task, tasks = instantiate(node, declared)
        writes = self.step("delete", lambda: self.executor().delete([task]))
        self.evidence["delete"] = dict(writes)
        operation = self.spec.delete.operation
        if not delete_writes_ok(self.spec, writes):
            raise StepFailed("delete", f"wrote {dict(writes)}; expected one {operation}")
        task, tasks = instantiate(node)
        context = self.cloud.context
        found = [t.locate(context) for t in tasks]  # parents first: children are found in them
        self.evidence["gone"] = not found[tasks.index(task)]
        if found[tasks.index(task)]:
            raise StepFailed("gone", "still found after its delete")

    def cleanup(self, node: Node) -> None:
        """The parents (and the resource, after a failure) go, so the next cycle starts clean."""
        task, tasks = instantiate(node)
        try:
            self.executor().delete(tasks)
        except Exception as err:
            self.outcome.notes.append(f"cleanup: {short(err)}")


def _ancestors(node: Node) -> list[Node]:
    out: list[Node] = []
    todo = list(node.embedded.values())
    while todo:
        parent = todo.pop()
        if parent is not node and parent not in out:
            out.append(parent)
            todo.extend(parent.parents())
    return out


def delete_writes_ok(spec: Any, writes: Counter[str] | dict[str, int]) -> bool:
    """One delete call; membership lists the kind's delete refuses while they hold items
    (``emptied_before_delete``: an instance profile's role) are emptied first through their
    remove calls, and the delete is still sent once; any other membership list is the runtime's
    documented retry (aws_updates.delete): a delete refused as in use is sent again once they
    are emptied."""
    operation = spec.delete.operation
    if dict(writes) == {operation: 1}:
        return True
    memberships = [f for f in spec.fields if f.update_kind == "add_remove"]
    emptied_first = {f.remove_operation for f in memberships if f.emptied_before_delete}
    removes = {f.remove_operation for f in memberships}
    rest = {op for op in writes if op != operation}
    if rest and rest <= emptied_first and writes.get(operation) == 1:
        return True
    return writes.get(operation) == 2 and bool(rest) and rest <= removes


def routed_writes(spec: Any, f: Any) -> Counter[str]:
    """The writes a change of ``f`` must make: its routed call; for a field of a versioned
    resource (a launch template), a new version and the default moved to it."""
    versioning = spec.versioning
    if versioning is not None and f.name in versioning.fields:
        return Counter({versioning.create_operation: 1, versioning.default_operation: 1})
    return Counter({spec.tags.tag_operation if f.is_tags else f.update_operation: 1})


def _names_another(f: Any) -> bool:
    """An id or ARN of another resource that the annotation gives no reference (a Route's
    LocalGatewayId): a made-up one means nothing to the cloud."""
    return f.name.endswith(("Id", "Ids", "Arn", "Arns")) and not f.references

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
            sleep=lambda _: None,
            retry_interval=0.01,
            task_deadline=10.0,
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
            changed = self.changes(node, observed)  # what the resource now holds
            self.create_only(node, changed)
            self.delete(node, changed)
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
        writes = self.step("apply", lambda: self.executor().run(tasks))
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

    def changes(self, node: Node, observed: dict[str, Any]) -> dict[str, Any]:
        """Each mutable field changed in turn, the earlier changes kept declared; what was
        declared at the end (task attribute -> value)."""
        from tasklayer_tasks.runtime.diff import differs

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
            value, expected = self._new_value(node, f, observed, differs)
            if value is None:
                self.outcome.notes.append(f"{f.attr}: not changed (no other valid value)")
                continue
            task, tasks = instantiate(node, {**declared, f.attr: value})
            try:
                writes = self.step(f"change {f.attr}", lambda: self.executor().run(tasks))
            except StepFailed as failed:
                if not failed.skipped:
                    raise
                self.outcome.notes.append(f"{f.attr}: not changed (moto lacks {expected})")
                continue
            changed[f.attr] = dict(writes)
            if writes != Counter({expected: 1}):
                raise StepFailed(
                    f"change {f.attr}", f"wrote {dict(writes)}; the routed call is {expected}"
                )
            observed = dict(task.observed)
            declared[f.attr] = value
        return declared

    def _unchangeable(self, f: Any) -> str | None:
        if f.write_only:
            return "write-only: never read back, so never compared"
        if f.references:
            return f"refers to a {f.references}: another one is not synthesised"
        if f.is_tags and (self.spec.tags is None or self.spec.tags.tag_operation is None):
            return "no tag call"
        return None

    def _new_value(self, node: Node, f: Any, observed: dict[str, Any], differs: Any) -> tuple[Any, str]:
        if f.is_tags:
            return {"sweep-change": "1"}, self.spec.tags.tag_operation
        schema = self.cloud.schema_of(self.resource, f.name)
        if schema is None:
            return None, ""
        for variant in CHANGE_VARIANTS:
            value = node.synth.value(f.name, schema, variant)
            if differs(self.spec, f.name, observed.get(f.name), value):
                return value, f.update_operation
        return None, ""

    def create_only(self, node: Node, declared: dict[str, Any]) -> None:
        from tasklayer_tasks.runtime import CannotChangeFieldError

        chosen = self._create_only_field(node)
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
                raise StepFailed("create-only change", f"refused, but after writes {dict(writes)}")
            if f.attr not in str(err):
                raise StepFailed("create-only change", f"refused without naming {f.attr}: {err}")
            return
        except Exception as err:
            raise StepFailed("create-only change", f"{f.attr}: {short(err)}") from None
        writes = self.cloud.writes(since)
        raise StepFailed("create-only change", f"{f.attr} not refused; wrote {dict(writes)}")

    def _create_only_field(self, node: Node) -> tuple[Any, Any] | None:
        """A create-only field the apply declared (else one it could have) and another valid
        value of it. Identity members are not among them: another name is another resource."""
        identity = {*self.spec.natural, *self.spec.parent, *self.spec.primary}
        fixed = [
            f
            for f in self.spec.fields
            if f.mutability.value in ("create_only", "unknown")
            and f.in_create
            and not (f.write_only or f.references or f.is_tags or f.attr == "name")
            and f.name not in identity
        ]
        fixed.sort(key=lambda f: f.attr not in node.values)  # one the apply declared, first
        for f in fixed:
            schema = self.cloud.schema_of(self.resource, f.name)
            if schema is None:
                continue
            base = node.values.get(f.attr)
            for variant in CHANGE_VARIANTS:
                value = node.synth.value(f.name, schema, variant)
                if value != base:
                    return f, value
        return None

    def delete(self, node: Node, declared: dict[str, Any]) -> None:
        task, tasks = instantiate(node, declared)
        writes = self.step("delete", lambda: self.executor().delete([task]))
        self.evidence["delete"] = dict(writes)
        operation = self.spec.delete.operation
        if writes != Counter({operation: 1}):
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

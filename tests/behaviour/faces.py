"""Drive one resource kind through both faces — the kOps-style task and the CAPI-style
reconciler — with the same desired state and the same knowledge, recording the cloud calls each
makes at the client (botocore's ``before-parameter-build`` for AWS, the fake's request log for
GCP). Used by ``test_faces_agree.py``.

Per kind, each face runs in a cloud of its own, made the same way (moto seeded by the kind's key;
a new GCP fake): its parents applied by the executor, then four scenarios in order, each recorded
apart:

- ``create``: nothing known (no id), nothing there: the task's ``run``, the reconciler's
  ``reconcile(spec, {})``;
- ``re-apply, known id``: the task that made it (it holds the id, and whether its create was
  seen) / the status the reconciler returned (its id, and the create attempt while unseen);
- ``re-apply, no id``: a fresh task, an empty status: found by identity and ownership;
- ``delete, known id``: the task's ``delete`` / the reconciler's ``delete(spec, {"id": ...})``.

Both faces own with the same owner (the task's: kOps' tags / label), so the tags they write are
the same. Calls are compared by operation and parameters; what is random per run is normalised:
tokens and markers (uuid hex) become ``<token>``, and a run of reads of one operation made at once
(a VPC's two DNS attributes, read in parallel) is compared in sorted order.
"""

from __future__ import annotations

import dataclasses
import json
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tests.conformance.blueprint import Builder, Node, Unsatisfiable, instantiate
from tests.conformance.resources import Resource

Call = tuple[str, str]  # (operation, normalised parameters)
SCENARIOS = ("create", "re-apply, known id", "re-apply, no id", "delete, known id")

_TOKEN = re.compile(
    r"tl[0-9a-f]{20}-[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|[0-9a-f]{32}"
)


def normalised(value: Any) -> str:
    return _TOKEN.sub("<token>", json.dumps(value, sort_keys=True, default=str))


def canonical(calls: list[Call]) -> list[Call]:
    """Runs of one read operation made together in sorted order (they are sent at once)."""
    out: list[Call] = []
    i = 0
    while i < len(calls):
        j = i
        while j < len(calls) and calls[j][0] == calls[i][0]:
            j += 1
        out.extend(sorted(calls[i:j]))
        i = j
    return out


class Recorder:
    """The calls a cloud received, from a mark on."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def mark(self) -> int:
        return len(self.calls)

    def since(self, mark: int) -> list[Call]:
        return canonical(self.calls[mark:])


class AwsWorld:
    provider = "aws"

    def __init__(self) -> None:
        import botocore.session
        import moto  # noqa: F401  # before the session: moto's handlers join sessions made after it

        from tasklayer_tasks.runtime import Context
        from tasklayer_tasks.runtime.contract.retry import RetryPolicy

        self.recorder = Recorder()
        self.session = botocore.session.get_session()
        self.session.register("before-parameter-build", self._record)
        self.context = Context(
            region="us-east-1",
            cluster="sweep",
            session=self.session,
            retry=RetryPolicy(sleep=lambda _: None),
        )

    def _record(self, params: Any, model: Any, **_: Any) -> None:
        self.recorder.calls.append((model.name, normalised(params)))

    @contextmanager
    def fresh(self, key: str) -> Iterator[None]:
        from moto import mock_aws
        from moto.moto_api._internal import mock_random

        with mock_aws():
            mock_random.seed(zlib.crc32(key.encode()))
            yield


class GcpWorld:
    provider = "gcp"

    def __init__(self, documents: dict[str, Any]) -> None:
        self.documents = documents
        self.recorder = Recorder()
        self.context: Any = None
        self.fake: Any = None

    @contextmanager
    def fresh(self, key: str) -> Iterator[None]:
        from tasklayer_tasks.runtime import Context
        from tasklayer_tasks.runtime.contract.retry import RetryPolicy
        from tasklayer_tasks.testing import FakeGcp

        self.fake = FakeGcp(*self.documents.values())
        self.context = Context(
            project="sweep-proj",
            region="us-central1",
            zone="us-central1-a",
            cluster="sweep",
            http=self.fake,
            retry=RetryPolicy(sleep=lambda _: None),
        )
        self.recorder = _FakeLog(self.fake)
        yield


class _FakeLog(Recorder):
    def __init__(self, fake: Any) -> None:
        super().__init__()
        self.fake = fake

    def mark(self) -> int:
        return len(self.fake.log)

    def since(self, mark: int) -> list[Call]:
        return canonical(
            [
                (r.method_id, normalised([r.http_method, r.path, r.query, r.body]))
                for r in self.fake.log[mark:]
            ]
        )


def reconciler_class(resource: Resource) -> type:
    import importlib

    package = resource.module.rsplit(".", 1)[0]
    reconcilers = importlib.import_module(f"{package}.reconcilers")
    return getattr(reconcilers, f"{resource.task.__name__}Reconciler")  # type: ignore[no-any-return]


def reconciler_spec(task: Any) -> dict[str, Any]:
    """The custom resource spec that declares what ``task`` declares (its parents resolved)."""
    from tasklayer_tasks.runtime.contract.spec import Mutability

    spec: dict[str, Any] = {"name": task.name, **task.placement()}
    for name, value in task.desired().items():
        f = task.spec.field(name)
        if f.mutability is Mutability.READ_ONLY or name in task.spec.primary and f.attr == "id":
            continue
        if f.is_tags:
            if value:
                spec["additionalTags"] = dict(value)
            continue
        spec[f.key] = value
    if "project" in getattr(task, "__dataclass_fields__", {}) and task.project:
        spec["project"] = task.project
    return spec


@dataclasses.dataclass
class FaceRun:
    calls: dict[str, list[Call]]
    notes: dict[str, str]


def _attempt(action: Callable[[], Any]) -> str:
    """Run one face step; what it ended with, for the report (never raised: calls are compared)."""
    try:
        result = action()
    except Exception as err:
        return f"{type(err).__name__}: {str(err)[:120]}"
    ready = getattr(result, "conditions", None)
    if ready:
        return f"{ready[0].reason}"
    return "ok"


def parents_applied(world: Any, node: Node) -> tuple[Any, list[Any]]:
    from tasklayer_tasks.runtime import CloudTarget, Executor

    root, tasks = instantiate(node)
    parents = [t for t in tasks if t is not root]
    if parents:
        Executor(
            CloudTarget(world.context),
            max_concurrency=1,
            sleep=lambda _: None,
            retry_interval=0.01,
            task_deadline=2.0,
        ).run(parents)
    return root, parents


def by_value(root: Any) -> Any:
    """``root`` holding what its references hold (ids, selfLinks) instead of its parents'
    tasks: the knowledge a reconciler's spec has. A task holding its parent's task also knows
    whether the cluster owns that parent (the parent ran first) and skips reading it again; a
    reconciler cannot know it, so both are given the values."""
    from tasklayer_tasks.runtime.kops.nested import tasks_in

    desired = root.desired()
    values = {
        f.attr: desired[f.name]
        for f in root.spec.fields
        if f.name in desired and any(True for _ in tasks_in(getattr(root, f.attr, None)))
    }
    return dataclasses.replace(root, **values)


def run_task_face(world: Any, node: Node) -> FaceRun:
    from tasklayer_tasks.runtime import CloudTarget

    root, _ = parents_applied(world, node)
    root = by_value(root)
    target = CloudTarget(world.context)
    calls: dict[str, list[Call]] = {}
    notes: dict[str, str] = {}

    def record(scenario: str, action: Callable[[], Any]) -> None:
        mark = world.recorder.mark()
        notes[scenario] = _attempt(action)
        calls[scenario] = world.recorder.since(mark)

    record("create", lambda: root.run(world.context, target))
    # the task that made it knows its id (AWS: ``id``; GCP: what it observed)
    record("re-apply, known id", lambda: root.run(world.context, target))
    fresh = by_value(dataclasses.replace(root, **({"id": None} if "id" in root.__dataclass_fields__ else {})))
    record("re-apply, no id", lambda: fresh.run(world.context, target))
    record("delete, known id", lambda: root.delete(world.context, target))
    return FaceRun(calls, notes)


def run_reconciler_face(world: Any, node: Node, resource: Resource) -> FaceRun:
    root, _ = parents_applied(world, node)
    kind = reconciler_class(resource)
    persisted: list[dict[str, Any]] = []
    reconciler = kind(
        world.context,
        world.context.cluster,
        owner=root.owner(world.context),
        persist=lambda status: persisted.append(dict(status)),
    )
    spec = reconciler_spec(root)
    calls: dict[str, list[Call]] = {}
    notes: dict[str, str] = {}

    def record(scenario: str, action: Callable[[], Any]) -> Any:
        mark = world.recorder.mark()
        holder: list[Any] = []
        notes[scenario] = _attempt(lambda: holder.append(action()) or holder[-1])
        calls[scenario] = world.recorder.since(mark)
        return holder[0] if holder else None

    made = record("create", lambda: reconciler.reconcile(spec, {}))
    # what the reconciler knows next is what it persisted, as a controller's store keeps it
    known = dict(made.status if made is not None else persisted[-1] if persisted else {})
    known.pop("conditions", None)
    record("re-apply, known id", lambda: reconciler.reconcile(spec, known))
    record("re-apply, no id", lambda: reconciler.reconcile(spec, {}))
    record("delete, known id", lambda: reconciler.delete(spec, known))
    return FaceRun(calls, notes)


@dataclasses.dataclass
class Compared:
    key: str
    agree: bool
    skipped: str | None = None  # why the kind could not be driven
    differences: list[str] = dataclasses.field(default_factory=list)


def compare(world: Any, builder: Builder, resource: Resource) -> Compared:
    key = f"{resource.provider}/{resource.service}/{resource.name}"
    try:
        node = builder.build(resource)
    except Unsatisfiable as err:
        return Compared(key, True, skipped=f"no desired state can be made: {err}")
    try:
        with world.fresh(key):
            task = run_task_face(world, node)
        with world.fresh(key):
            reconciler = run_reconciler_face(world, node, resource)
    except Exception as err:
        return Compared(key, True, skipped=f"its parents cannot be applied: {str(err)[:160]}")
    differences = []
    for scenario in SCENARIOS:
        a, b = task.calls[scenario], reconciler.calls[scenario]
        if resource.provider == "gcp" and reconciler.notes[scenario] in RUNNING:
            a = until_operation(a)  # the designed difference: see RUNNING
        if resource.provider == "gcp" and scenario != "create":
            b = after_operation(b)  # the poll of the operation the task waited for
        if a != b:
            differences.append(
                f"{scenario}: task {[c[0] for c in a]} ({task.notes[scenario]}) vs reconciler "
                f"{[c[0] for c in b]} ({reconciler.notes[scenario]})"
                + ("" if [c[0] for c in a] != [c[0] for c in b] else " (parameters differ)")
            )
    return Compared(key, not differences, differences=differences)


# A GCP long-running operation: the task's adapter waits for it (``operations.wait``, then the
# read-back); the reconciler's does not wait (controller-runtime's rule: never a busy wait) and
# ends its pass ``OperationRunning`` / ``Deleting`` with the operation in its status, for the next
# pass to look at. Up to the operation, the calls must be the same.
RUNNING = ("OperationRunning", "Deleting")


def after_operation(calls: list[Call]) -> list[Call]:
    """A pass's first look at the operation its last pass left running (the status's
    ``operation``): the task waited for it inside that pass instead."""
    i = 0
    while i < len(calls) and calls[i][0].endswith(("perations.get", "perations.wait")):
        i += 1
    return calls[i:]


def until_operation(calls: list[Call]) -> list[Call]:
    for i, (operation, _) in enumerate(calls):
        if operation.endswith(("perations.wait", "perations.get")):
            return calls[:i]
    return calls

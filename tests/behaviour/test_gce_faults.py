"""Faults at every mutating call of the GCE stack, and operations that take long or fail: the
stack still converges, with no duplicate and no 412."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tasklayer_tasks.gcp.compute import Network
from tasklayer_tasks.gcp.compute.reconcilers import NetworkReconciler
from tasklayer_tasks.runtime import (
    CloudTarget,
    Context,
    Executor,
    InvalidRequestError,
    MalformedResponseError,
    TaskError,
)
from tasklayer_tasks.runtime.gcp.errors import translate
from tasklayer_tasks.testing import FakeGcp
from testbed.gce import gce_stack, gcp_context, writes
from tests.behaviour.test_gce_requests import DRIFTS, drift


class Reply(dict[str, Any]):
    """An httplib2-like response."""

    def __init__(self, status: int) -> None:
        super().__init__({"status": str(status), "content-type": "application/json"})
        self.status, self.reason = status, "Error"


def mutating(uri: str, method: str) -> bool:
    return method != "GET" and not uri.split("?")[0].endswith("/wait")


class Faults:
    """The fake behind a wire that fails the first mutating request to ``at`` (method and
    URL): its reply lost after the server carried it out (``lost``), or a 503 before it did
    (``503``). By call rather than by position: the executor's threads interleave requests."""

    def __init__(self, fake: FakeGcp, kind: str, at: str) -> None:
        self.fake, self.kind, self.at = fake, kind, at
        self.hit: str | None = None

    def request(self, uri: str, method: str = "GET", body: Any = None, headers: Any = None, **kw: Any) -> Any:
        if mutating(uri, method) and self.hit is None:
            if f"{method} {uri.split('?')[0]}" == self.at:
                self.hit = self.at
                if self.kind == "503":
                    error = {"error": {"code": 503, "message": "backend error", "errors": [{"reason": "backendError"}]}}
                    return Reply(503), json.dumps(error).encode()
                self.fake.request(uri, method, body, headers, **kw)
                raise TimeoutError("the reply was lost after the server committed")
        return self.fake.request(uri, method, body, headers, **kw)


def scenario(context: Context, fake: FakeGcp) -> None:
    """Apply the stack, then drift every resource type and apply again."""
    run = Executor(CloudTarget(context), sleep=lambda _: None)
    run.run(gce_stack().tasks())
    for suffix, member, value, _ in DRIFTS:
        drift(fake, suffix, member, value)
    Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())


def clean_calls() -> list[str]:
    context, fake = gcp_context()
    scenario(context, fake)
    return [f"{r.http_method} https://compute.googleapis.com{r.path}" for r in fake.log
            if mutating(r.path, r.http_method)]


MUTATING_CALLS = clean_calls()


@pytest.mark.parametrize("kind", ["lost", "503"])
def test_a_fault_at_every_mutating_call_converges_with_no_duplicate_and_no_412(kind: str) -> None:
    assert len(set(MUTATING_CALLS)) == len(MUTATING_CALLS) == 13 + len(DRIFTS)
    hits = set()
    for at in MUTATING_CALLS:
        faults: list[Faults] = []
        context, fake = gcp_context(operation_polls=1, http=lambda f, faults=faults, at=at: faults.append(Faults(f, kind, at)) or faults[0])
        scenario(context, fake)
        hits.add(faults[0].hit)
        since = len(fake.log)
        Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())
        assert writes(fake, since) == [], (kind, at, faults[0].hit)  # converged
        assert len(fake.store) == 14, (kind, at)  # nothing made twice (13 and the managed group)
        statuses = [r.status for r in fake.log]
        assert 409 not in statuses and 412 not in statuses, (kind, at, faults[0].hit)
    assert hits == set(MUTATING_CALLS)  # every mutating call was hit


def test_recreate_after_delete_creates_with_new_request_ids() -> None:
    context, fake = gcp_context()
    Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())
    first = {r.query["requestId"] for r in fake.log if r.method_id.endswith(".insert")}
    Executor(CloudTarget(context), sleep=lambda _: None).delete(gce_stack().tasks())
    assert fake.store == {}
    since = len(fake.log)
    Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())
    again = {r.query["requestId"] for r in fake.log[since:] if r.method_id.endswith(".insert")}
    assert len(fake.store) == 14 and len(again) == 13 and not first & again


def test_reconciler_recreates_after_delete() -> None:
    context, fake = gcp_context(operation_polls=0)
    status: dict[str, Any] = {}
    reconciler = NetworkReconciler(context, "c1", persist=status.update)
    spec = {"name": "net", "autoCreateSubnetworks": False}
    assert reconciler.reconcile(spec, status).ready
    deleted = reconciler.delete(spec, dict(status))
    assert fake.store == {}
    assert reconciler.reconcile(spec, deleted.status).ready and len(fake.store) == 1
    ids = [r.query["requestId"] for r in fake.log if r.method_id == "compute.networks.insert"]
    assert len(ids) == 2 and ids[0] != ids[1]


def test_an_operation_that_never_finishes_is_polled_with_backoff_within_the_timeout() -> None:
    context, fake = gcp_context(operation_polls=10**9)
    slept: list[float] = []
    context.retry.sleep = slept.append
    context.operation_timeout = 60.0
    with pytest.raises(TaskError, match="gave up") as err:
        Executor(CloudTarget(context), sleep=lambda _: None, task_deadline=0.0).run([Network(name="slow")])
    polls = sum(1 for r in fake.log if r.method_id == "compute.globalOperations.wait")
    assert "still RUNNING" in str(err.value) and polls <= 12
    assert sum(slept) >= 60.0 and slept == sorted(slept)  # backing off, up to the timeout
    assert writes(fake) == ["compute.networks.insert"]


def test_a_failed_operation_is_the_task_error_by_its_kind() -> None:
    context, fake = gcp_context()
    fake.fail_next("compute.networks.insert", "QUOTA_EXCEEDED", "Quota 'NETWORKS' exceeded")
    with pytest.raises(TaskError, match="QUOTA_EXCEEDED: Quota 'NETWORKS' exceeded"):
        Executor(CloudTarget(context), sleep=lambda _: None).run([Network(name="n")])
    assert fake.store == {}
    Executor(CloudTarget(context), sleep=lambda _: None).run([Network(name="n")])
    fake.fail_next("compute.networks.delete")  # in use by something else: said so, not retried forever
    with pytest.raises(TaskError, match="in use by something this delete was not asked to remove"):
        Executor(CloudTarget(context), sleep=lambda _: None).delete([Network(name="n")])


def test_a_malformed_operation_error_is_reported_as_malformed() -> None:
    def broken(fake: FakeGcp) -> Any:
        class Wire:
            def request(self, uri: str, method: str = "GET", body: Any = None, headers: Any = None, **kw: Any) -> Any:
                reply, content = fake.request(uri, method, body, headers, **kw)
                answer = json.loads(content)
                if answer.get("kind") == "compute#operation":
                    answer.update(status="DONE", error="boom")
                return reply, json.dumps(answer).encode()
        return Wire()

    context, _ = gcp_context(http=broken)
    with pytest.raises(MalformedResponseError, match="not an operation error: 'boom'"):
        Executor(CloudTarget(context), sleep=lambda _: None).run([Network(name="n")])


def test_an_error_body_that_is_not_googles_is_reported_as_it_came() -> None:
    from googleapiclient.errors import HttpError

    err = translate(HttpError(Reply(400), b"<html>upstream proxy refused</html>"), "compute.networks.get")
    assert isinstance(err, InvalidRequestError) and "<html>upstream proxy refused</html>" in str(err)


def test_each_thread_has_its_own_client_and_a_shared_http_is_used_one_request_at_a_time() -> None:
    inside, most = [0], [0]
    lock = threading.Lock()

    def counting(fake: FakeGcp) -> Any:
        class Wire:
            def request(self, *args: Any, **kw: Any) -> Any:
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.001)  # long enough for a second thread to come in, were it let in
                try:
                    return fake.request(*args, **kw)
                finally:
                    with lock:
                        inside[0] -= 1
        return Wire()

    context, fake = gcp_context(http=counting)
    Executor(CloudTarget(context), sleep=lambda _: None, max_concurrency=4).run(gce_stack().tasks())
    assert len(fake.store) == 14 and most[0] == 1
    clients = {id(c) for k, c in context._clients.items() if isinstance(k, tuple)}
    assert len(clients) > 1  # one per executor thread

    made: list[Any] = []
    per_thread = Context(project="proj", cluster="demo", new_http=lambda: made.append(FakeGcp()) or made[-1])
    seen = set()
    document = str(Network.document)
    together = threading.Barrier(3)  # alive at once: three threads, three clients, three https

    def work() -> None:
        seen.add(id(per_thread.gcp_client(document)))
        together.wait()

    workers = [threading.Thread(target=work) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(seen) == 3 and len(made) == 3

"""iam's creates and deletes answer google.longrunning operations (AIP-151), not compute's: the
runtime polls them by their whole name, takes the new resource's name from the finished
operation's ``response``, and reports a failed one's google.rpc.Status by its kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasklayer_tasks.gcp.iam import WorkloadIdentityPool
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.errors import InUseError, TaskError
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.runtime.gcp.errors import operation_error
from tasklayer_tasks.runtime.gcp.operations import is_operation, operation_params
from tasklayer_tasks.testing import FakeGcp

DOCUMENT = Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "gcp" / "iam" / "discovery.json"
POOL = "projects/proj/locations/global/workloadIdentityPools/demo-pool"


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    fake = FakeGcp(json.loads(DOCUMENT.read_text()), operation_polls=2)
    context = Context(project="proj", region="global", cluster="demo", http=fake,
                      retry=RetryPolicy(sleep=lambda _: None))
    return context, fake


def pool(**changes: str) -> WorkloadIdentityPool:
    values = {"workload_identity_pool_id": "demo-pool", "display_name": "demo", **changes}
    return WorkloadIdentityPool(name="pool", **values)  # type: ignore[arg-type]


def test_create_waits_on_the_operation_by_its_name_and_keeps_the_name_it_made(
    cloud: tuple[Context, FakeGcp],
) -> None:
    context, fake = cloud
    task = pool()
    Executor(CloudTarget(context), sleep=lambda _: None).run([task])
    polls = [r for r in fake.log if r.method_id.endswith("operations.get")]
    assert [r.path.rsplit("/operations/", 1)[0] for r in polls] == ["/v1/" + POOL] * 2
    assert [r.method_id for r in fake.log if r.http_method != "GET"] == [
        "iam.projects.locations.workloadIdentityPools.create"
    ]
    assert task.resource_id == POOL  # from the finished operation's response
    since = len(fake.log)
    Executor(CloudTarget(context), sleep=lambda _: None).run([pool()])
    assert [r for r in fake.log[since:] if r.http_method != "GET"] == []


def test_a_failed_delete_operation_is_in_use(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    Executor(CloudTarget(context), sleep=lambda _: None).run([pool()])
    fake.fail_next("iam.projects.locations.workloadIdentityPools.delete")
    with pytest.raises(TaskError, match="FAILED_PRECONDITION"):
        Executor(CloudTarget(context), sleep=lambda _: None).delete([pool()])


def test_the_two_operation_shapes() -> None:
    running = {"name": f"{POOL}/operations/abc", "metadata": {}}  # done=false left out
    assert is_operation(running) and operation_params(running) == {"name": f"{POOL}/operations/abc"}
    compute = {"name": "operation-1", "status": "RUNNING",
               "selfLink": "https://compute.googleapis.com/compute/v1/projects/p/zones/z/operations/operation-1"}
    assert operation_params(compute) == {"project": "p", "zone": "z", "operation": "operation-1"}
    assert not is_operation({"name": POOL, "displayName": "demo"})  # a resource, not an operation
    err = operation_error("iam.x.delete", {"code": 9, "message": "pool has providers"})
    assert isinstance(err, InUseError) and "FAILED_PRECONDITION: pool has providers" in str(err)

"""Run inside a fresh venv holding only the generated wheel and one botocore: the kOps-like
cluster of examples/kops_cluster.py applied, re-applied and deleted against moto_server.

    python botocore_range_scenario.py EXAMPLE_PATH ENDPOINT_URL

Prints one JSON line: the botocore version, calls made per phase, what is left after delete.
Needs nothing but the wheel's own dependencies (no boto3, no moto, no generator).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from typing import Any

import botocore
import botocore.session

from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy

READS = ("Describe", "Get", "List")
CLUSTER = "range.example.com"


def load_example(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("kops_cluster", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def left_after_delete(session: Any, url: str) -> dict[str, int]:
    """What the cluster still owns in EC2 (a deleted NAT gateway stays listed, as on AWS)."""
    ec2 = session.create_client("ec2", region_name="us-east-1", endpoint_url=url)
    owned = [{"Name": f"tag:kubernetes.io/cluster/{CLUSTER}", "Values": ["owned"]}]
    left = {}
    for op, key in (("describe_vpcs", "Vpcs"), ("describe_subnets", "Subnets"),
                    ("describe_security_groups", "SecurityGroups"), ("describe_nat_gateways", "NatGateways")):
        left[key] = len([i for i in getattr(ec2, op)(Filters=owned)[key] if i.get("State") != "deleted"])
    return left


def main(example_path: str, url: str) -> None:
    calls: Counter[str] = Counter()
    session = botocore.session.get_session()
    session.register("before-call.*.*", lambda model, **_: calls.update([model.name]))
    context = Context(region="us-east-1", cluster=CLUSTER, endpoint_url=url, session=session,
                      retry=RetryPolicy(sleep=lambda _: None))
    tasks = load_example(example_path).kops_cluster(CLUSTER)
    phases = {}
    for phase in ("apply", "reapply", "delete"):
        calls.clear()
        executor = Executor(CloudTarget(context), sleep=lambda _: None)
        executor.delete(tasks) if phase == "delete" else executor.run(tasks)
        writes = sum(n for op, n in calls.items() if not op.startswith(READS))
        phases[phase] = {"reads": sum(calls.values()) - writes, "writes": writes}
    once = context.client("ec2", sdk_retries=False).meta.config.retries
    print(json.dumps({"botocore": botocore.__version__, "tasks": len(tasks), "phases": phases,
                      "retries": context.client("ec2").meta.config.retries["mode"], "once": once,
                      "left": left_after_delete(session, url)}))


if __name__ == "__main__":
    main(*sys.argv[1:])

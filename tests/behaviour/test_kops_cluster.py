"""The kOps-like cluster of examples/kops_cluster.py against moto_server (its own process, over
HTTP), every call counted at botocore's hooks (what the clients sent)."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import botocore.session
import pytest

from examples.kops_cluster import kops_cluster
from examples.kops_cluster import run as example_run
from tasklayer_tasks.runtime import Action, CloudTarget, Context, DryRunTarget, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed.moto import MotoServer

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = "demo.example.com"
READS = ("Describe", "Get", "List")


class Calls:
    def __init__(self) -> None:
        self.made: Counter[str] = Counter()
        self.params: list[tuple[str, dict[str, Any]]] = []

    def count(self, model: Any, params: Any = None, **_: Any) -> None:
        self.made[model.name] += 1

    def record(self, params: Any, event_name: str, **_: Any) -> None:
        self.params.append((event_name.rsplit(".", 1)[-1], dict(params)))

    def writes(self) -> Counter[str]:
        return Counter({k: v for k, v in self.made.items() if not k.startswith(READS)})

    def reads(self) -> int:
        return sum(v for k, v in self.made.items() if k.startswith(READS))


@pytest.fixture(scope="module")
def server() -> Iterator[MotoServer]:
    with MotoServer() as moto:
        yield moto


@pytest.fixture
def cloud(server: MotoServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Context, Calls]]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    server.reset()
    session = botocore.session.get_session()
    calls = Calls()
    session.register("before-call.*.*", calls.count)
    session.register("provide-client-params.*.*", calls.record)
    yield Context(region="us-east-1", cluster=CLUSTER, endpoint_url=server.url, session=session,
                  retry=RetryPolicy(sleep=lambda _: None)), calls


def apply(context: Context, **kwargs: Any) -> list[Any]:
    tasks = kops_cluster(CLUSTER, **kwargs)
    Executor(CloudTarget(context), sleep=lambda _: None).run(tasks)
    return tasks


def boto(server_url: str, service: str) -> Any:
    return boto3.client(service, region_name="us-east-1", endpoint_url=server_url,
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def test_clean_apply_creates_each_resource_once(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    tasks = apply(context)
    kinds = Counter(type(t).__name__ for t in tasks)
    creates = {k: v for k, v in calls.writes().items() if k.startswith(("Create", "Put", "Allocate", "Attach", "Associate", "Authorize"))}
    assert creates["CreateLaunchTemplate"] == kinds["LaunchTemplate"] == 2
    assert creates["CreateAutoScalingGroup"] == kinds["AutoScalingGroup"] == 2
    assert creates["CreateRole"] == 2 and creates["PutRolePolicy"] == 2 and creates["CreateInstanceProfile"] == 2
    assert creates["CreateLoadBalancer"] == creates["CreateTargetGroup"] == creates["CreateListener"] == 1
    assert creates["CreateVolume"] == kinds["Volume"] == 6 and creates["CreateKeyPair"] == 1
    assert creates["AllocateAddress"] == creates["CreateNatGateway"] == kinds["NatGateway"] == 3
    assert creates["CreateSubnet"] == kinds["Subnet"] and creates["CreateVpc"] == 1
    assert "CreateLaunchTemplateVersion" not in creates
    assert creates["CreateHostedZone"] == 1
    # each instance profile holds its role (a membership: one AddRoleToInstanceProfile each)
    assert calls.writes()["AddRoleToInstanceProfile"] == kinds["InstanceProfile"] == 2
    # record sets are created as changes in their zone's batch: one CREATE each
    actions = [c["Action"] for op, p in calls.params if op == "ChangeResourceRecordSets"
               for c in p["ChangeBatch"]["Changes"]]
    assert actions == ["CREATE"] * kinds["ResourceRecordSet"] == ["CREATE", "CREATE"]
    # every create once: no task created twice, none left uncreated
    assert sum(creates.values()) + len(actions) == len(tasks), (creates, kinds)


def test_reapply_writes_nothing_and_reads_little(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    tasks = apply(context)
    calls.made.clear()
    apply(context)
    assert calls.writes() == Counter()
    per_task = calls.reads() / len(tasks)
    print(f"\nconverged re-apply: {calls.reads()} reads for {len(tasks)} tasks = {per_task:.2f} per task;"
          f" {dict(sorted((k, v) for k, v in calls.made.items()))}")
    # measured 31 reads for 67 tasks (0.46): one listing per EC2/ASG/ELBv2 kind, whatever the
    # number of its tasks (24 subnets, routes, rules, NAT gateways... served by 6 listings), plus
    # what no API lists by tag: IAM read per resource (6), each launch template's default
    # version (2), the VPC's attributes (2), ELBv2 tags per kind (3), the hosted zone by name,
    # its tags and its record sets (3). The same reads served the earlier 42-task cluster (29,
    # 0.69): the per-resource floor is what a smaller cluster pays for.
    assert calls.reads() / len(tasks) <= 0.5, dict(calls.made)  # issue 13's goal
    # the per-kind listings: each listable kind read once, however many tasks it has
    listed = ("DescribeSubnets", "DescribeRouteTables", "DescribeSecurityGroupRules", "DescribeNatGateways",
              "DescribeAddresses", "DescribeVolumes", "DescribeSecurityGroups")
    assert all(calls.made[op] == 1 for op in listed), dict(calls.made)
    assert calls.reads() <= 31, dict(calls.made)


def test_a_new_instance_type_is_one_new_default_launch_template_version(cloud: tuple[Context, Calls], server: MotoServer) -> None:
    context, calls = cloud
    apply(context)
    calls.made.clear()
    apply(context, master_type="m5.large")
    assert calls.writes() == Counter({"CreateLaunchTemplateVersion": 1, "ModifyLaunchTemplate": 1})
    made = [p for op, p in calls.params if op == "CreateLaunchTemplateVersion"][0]
    assert made["LaunchTemplateData"]["InstanceType"] == "m5.large"
    assert made["LaunchTemplateData"]["ImageId"]  # a version is whole, not a patch
    ec2 = boto(server.url, "ec2")
    template = ec2.describe_launch_templates(LaunchTemplateNames=[f"masters.{CLUSTER}"])["LaunchTemplates"][0]
    assert template["DefaultVersionNumber"] == 2 and template["LatestVersionNumber"] == 2
    calls.made.clear()
    apply(context, master_type="m5.large")
    assert calls.writes() == Counter()


def test_a_given_public_key_is_imported_not_generated(cloud: tuple[Context, Calls], server: MotoServer) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    public = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
    context, calls = cloud
    apply(context, public_key=public)
    assert calls.writes()["ImportKeyPair"] == 1 and "CreateKeyPair" not in calls.writes()
    imported = [p for op, p in calls.params if op == "ImportKeyPair"][0]
    assert imported["PublicKeyMaterial"] == public.encode() and imported["KeyName"] == f"kubernetes.{CLUSTER}"
    keys = boto(server.url, "ec2").describe_key_pairs(KeyNames=[f"kubernetes.{CLUSTER}"])["KeyPairs"]
    assert len(keys) == 1 and keys[0]["Tags"]  # imported with the cluster's tags in the call
    calls.made.clear()
    apply(context, public_key=public)
    assert calls.writes() == Counter()


def test_a_changed_record_is_exactly_one_upsert(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context)
    calls.made.clear()
    calls.params.clear()
    apply(context, api_ip="198.51.100.7")
    assert calls.writes() == Counter({"ChangeResourceRecordSets": 2})
    changes = [c for op, p in calls.params if op == "ChangeResourceRecordSets" for c in p["ChangeBatch"]["Changes"]]
    assert [c["Action"] for c in changes] == ["UPSERT", "UPSERT"]  # the two api records, one change each
    assert all(c["ResourceRecordSet"]["ResourceRecords"] == [{"Value": "198.51.100.7"}] for c in changes)
    calls.made.clear()
    apply(context, api_ip="198.51.100.7")
    assert calls.writes() == Counter()


def test_delete_leaves_nothing_in_any_service(cloud: tuple[Context, Calls], server: MotoServer) -> None:
    context, calls = cloud
    tasks = apply(context)
    key = next(t for t in tasks if type(t).__name__ == "KeyPair")
    key_id = key.resource_id
    Executor(CloudTarget(context), sleep=lambda _: None).delete(tasks)
    # moto's DeleteKeyPair reads only KeyName and ignores the KeyPairId AWS also takes: the
    # call is checked here, the key pair left out of what moto is asked below
    assert ("DeleteKeyPair", {"KeyPairId": key_id}) in calls.params
    owned = [{"Name": f"tag:kubernetes.io/cluster/{CLUSTER}", "Values": ["owned"]}]
    ec2 = boto(server.url, "ec2")
    for op, key in (("describe_vpcs", "Vpcs"), ("describe_subnets", "Subnets"), ("describe_volumes", "Volumes"),
                    ("describe_launch_templates", "LaunchTemplates"),
                    ("describe_security_groups", "SecurityGroups"), ("describe_route_tables", "RouteTables"),
                    ("describe_internet_gateways", "InternetGateways"), ("describe_nat_gateways", "NatGateways"),
                    ("describe_addresses", "Addresses")):
        # a deleted NAT gateway stays listed (State "deleted") for about an hour, as on AWS
        assert [i for i in getattr(ec2, op)(Filters=owned)[key] if i.get("State") != "deleted"] == [], op
    assert boto(server.url, "route53").list_hosted_zones()["HostedZones"] == []
    iam = boto(server.url, "iam")
    assert iam.list_roles()["Roles"] == [] and iam.list_instance_profiles()["InstanceProfiles"] == []
    assert boto(server.url, "autoscaling").describe_auto_scaling_groups()["AutoScalingGroups"] == []
    elb = boto(server.url, "elbv2")
    assert elb.describe_load_balancers()["LoadBalancers"] == [] and elb.describe_target_groups()["TargetGroups"] == []


def answer_key_pairs_by_id(session: Any) -> None:
    """moto 5's DescribeKeyPairs ignores KeyPairIds and lists every key pair; AWS answers with
    those asked for. The runtime rightly refuses an answer naming another resource, so with two
    clusters' keys in the account the answer is cut to what was asked, as AWS would send it."""
    def remember(params: Any, context: Any, **_: Any) -> None:
        context["asked_key_pair_ids"] = params.get("KeyPairIds")

    def keep_asked(parsed: Any, context: Any, **_: Any) -> None:
        asked = context.get("asked_key_pair_ids")
        if asked:
            parsed["KeyPairs"] = [k for k in parsed.get("KeyPairs", []) if k.get("KeyPairId") in asked]

    session.register("provide-client-params.ec2.DescribeKeyPairs", remember)
    session.register("after-call.ec2.DescribeKeyPairs", keep_asked)


def test_clusters_that_differ_only_in_their_domain_apply_side_by_side(cloud: tuple[Context, Calls],
                                                                        server: MotoServer) -> None:
    """Account-unique names (the NLB's, its target group's) come from the whole cluster name:
    ``demo.example.com`` and ``demo.example.net`` each get every one of their resources."""
    context, calls = cloud
    answer_key_pairs_by_id(context.session)
    first = apply(context)
    other = "demo.example.net"
    second = kops_cluster(other)
    beside = Context(region=context.region, cluster=other, endpoint_url=context.endpoint_url,
                     session=context.session, retry=context.retry)
    Executor(CloudTarget(beside), sleep=lambda _: None).run(second)
    assert all(t.resource_id for t in (*first, *second) if hasattr(t, "id")), "a task left without its resource"
    elb = boto(server.url, "elbv2")
    assert len(elb.describe_load_balancers()["LoadBalancers"]) == len(elb.describe_target_groups()["TargetGroups"]) == 2
    groups = boto(server.url, "autoscaling").describe_auto_scaling_groups()["AutoScalingGroups"]
    masters = {g["AutoScalingGroupName"]: g["TargetGroupARNs"] for g in groups if g["AutoScalingGroupName"].startswith("masters.")}
    assert len(masters) == 2 and len({arn for arns in masters.values() for arn in arns}) == 2, masters
    creates = calls.writes()
    assert creates["CreateLoadBalancer"] == creates["CreateTargetGroup"] == creates["CreateListener"] == 2


def test_delete_sends_each_instance_profile_one_delete(cloud: tuple[Context, Calls]) -> None:
    """IAM refuses to delete an instance profile that holds a role: the role is removed first,
    so each profile gets one DeleteInstanceProfile (before: a refused one, then another)."""
    context, calls = cloud
    tasks = apply(context)
    profiles = sum(type(t).__name__ == "InstanceProfile" for t in tasks)
    calls.made.clear()
    calls.params.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).delete(tasks)
    per_profile: dict[str, list[str]] = {}
    for op, params in calls.params:
        if op in ("RemoveRoleFromInstanceProfile", "DeleteInstanceProfile"):
            per_profile.setdefault(params["InstanceProfileName"], []).append(op)
    assert calls.made["DeleteInstanceProfile"] == calls.made["RemoveRoleFromInstanceProfile"] == profiles == 2
    assert per_profile == {f"{group}.{CLUSTER}": ["RemoveRoleFromInstanceProfile", "DeleteInstanceProfile"]
                           for group in ("masters", "nodes")}, per_profile
    assert calls.made["DeleteRole"] == calls.made["DeleteRolePolicy"] == 2


def test_each_run_reports_what_it_did_and_the_calls_it_sent(cloud: tuple[Context, Calls],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    """Executor.run / delete return a Report: per task what it found and did, the reads and
    writes as botocore sent them (its before-call hook counts the same calls), the time; each
    change is one INFO line on the tasklayer logger."""
    context, calls = cloud
    run = Executor(CloudTarget(context), sleep=lambda _: None)
    tasks = kops_cluster(CLUSTER)
    with caplog.at_level(logging.INFO, logger="tasklayer"):
        made = run.run(tasks)
    assert (made.reads, made.writes) == (calls.reads(), sum(calls.writes().values()))
    assert len(made.of(Action.CREATED)) == len(made.tasks) == len(tasks) and not any(t.found for t in made.tasks)
    assert [t.key for t in made.tasks] == [t.key for t in tasks]  # the caller's order
    logged = [r.getMessage() for r in caplog.records if r.name == "tasklayer" and r.levelno == logging.INFO]
    assert sorted(logged) == sorted(f"created {t.key}" for t in tasks)
    assert made.format().startswith("Created resources:\n  AutoScalingGroup/masters.")
    assert f"67 created, 0 updated, 0 deleted; {made.reads} reads, {made.writes} writes in" in made.format()

    calls.made.clear()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="tasklayer"):
        again = run.run(kops_cluster(CLUSTER, master_type="m5.large"))
    assert (again.reads, again.writes) == (calls.reads(), 2) and sum(calls.writes().values()) == 2
    updated = again.of(Action.UPDATED)
    assert [(t.key, t.fields, t.found) for t in updated] == [
        (f"LaunchTemplate/masters.{CLUSTER}", ("launch_template_data",), True)]
    assert len(again.of(Action.UNCHANGED)) == len(tasks) - 1
    assert [r.getMessage() for r in caplog.records if r.name == "tasklayer"] == [
        f"updated LaunchTemplate/masters.{CLUSTER}: launch_template_data"]
    assert "Modified resources:\n  LaunchTemplate/masters.demo.example.com: launch_template_data\n" in again.format()

    calls.made.clear()
    gone = run.delete(tasks)
    assert len(gone.of(Action.DELETED)) == len(tasks) and gone.writes == sum(calls.writes().values())
    assert gone.reads == calls.reads()
    assert Executor(CloudTarget(context), sleep=lambda _: None).delete(tasks).of(Action.ABSENT) != []


def test_the_cli_example_prints_the_summary(cloud: tuple[Context, Calls], server: MotoServer,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    example_run(server.url, CLUSTER, dry_run=False, delete=False)
    first = capsys.readouterr().out
    assert first.startswith("Created resources:\n") and "Cluster changes have been applied to the cloud: 67 created" in first
    example_run(server.url, CLUSTER, dry_run=False, delete=False)
    assert capsys.readouterr().out.startswith("No changes: 0 created, 0 updated, 0 deleted, 67 unchanged; ")
    example_run(server.url, CLUSTER, dry_run=False, delete=True)
    assert "Deleted resources:\n" in capsys.readouterr().out


def test_the_dry_run_reads_like_kops_update_cluster(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    plan = DryRunTarget(context)
    Executor(plan).run(kops_cluster(CLUSTER))
    text = plan.plan.format()
    assert calls.writes() == Counter()
    assert "Will create resources:" in text
    for kind in ("LaunchTemplate/masters.", "AutoScalingGroup/nodes.", "Listener/443", "Volume/a.etcd-main."):
        assert kind in text


def test_the_example_runs_as_a_script(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT / "generated"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "kops_cluster.py"), "--dry-run"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Will create resources:" in done.stdout and "LaunchTemplate/nodes.demo.example.com" in done.stdout

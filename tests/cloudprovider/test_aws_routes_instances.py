"""Routes and InstancesV2 of the cloud-provider face on AWS, against moto_server behind the fault
proxy; the account is read from moto directly."""

from __future__ import annotations

from collections import Counter

from tasklayer_tasks.runtime.cloudprovider.aws import AwsInstances, AwsRoutes
from tasklayer_tasks.runtime.cloudprovider.service import Node, Route
from tasklayer_tasks.runtime.kops.executor import Executor
from testbed.campaign import Lab
from tests.cloudprovider.lab import boto, make_cluster
from tests.faults.fixtures import lab, module_lab  # noqa: F401


def quick(target: object) -> Executor:
    return Executor(target, sleep=lambda _: None, retry_interval=0.01)  # type: ignore[arg-type]


def test_routes_are_created_listed_and_deleted_one_by_one(lab: Lab) -> None:
    cluster = make_cluster(lab.moto.url, "demo")
    routes = AwsRoutes(lab.context(""), cluster.aws, executor=quick)
    wanted = [Route(n.pod_cidr, n.instance_id, n.pod_cidr) for n in cluster.nodes[:2]]
    for route in wanted:
        routes.create_route(route)
    assert sorted(routes.list_routes(), key=lambda r: r.name) == wanted
    lab.proxy.clear()
    routes.create_route(wanted[0])  # there already, as declared
    assert lab.proxy.writes() == Counter()
    routes.delete_route(wanted[0])
    assert lab.proxy.writes() == Counter({"DeleteRoute": 1})
    assert routes.list_routes() == wanted[1:]
    table = boto(lab.moto.url, "ec2").describe_route_tables(
        RouteTableIds=[cluster.aws.route_table_id])["RouteTables"][0]
    assert {r["DestinationCidrBlock"] for r in table["Routes"]} == {"10.0.0.0/16", wanted[1].name}
    lab.proxy.clear()
    routes.delete_route(wanted[0])  # gone already
    assert lab.proxy.writes() == Counter()


def test_instances_exist_shut_down_and_describe_themselves(lab: Lab) -> None:
    cluster = make_cluster(lab.moto.url, "demo")
    instances = AwsInstances(lab.context(""), cluster.aws)
    running, stopped, gone = cluster.nodes
    ec2 = boto(lab.moto.url, "ec2")
    ec2.stop_instances(InstanceIds=[stopped.instance_id])
    ec2.terminate_instances(InstanceIds=[gone.instance_id])
    lab.proxy.clear()
    assert instances.instance_exists(running) and instances.instance_exists(stopped)
    assert not instances.instance_exists(gone)
    assert not instances.instance_exists(Node("nowhere", "aws:///us-east-1a/i-0123456789abcdef0"))
    assert not instances.instance_shutdown(running) and instances.instance_shutdown(stopped)
    meta = instances.instance_metadata(running)
    assert meta is not None
    described = ec2.describe_instances(InstanceIds=[running.instance_id])
    instance = described["Reservations"][0]["Instances"][0]
    zone = instance["Placement"]["AvailabilityZone"]
    assert meta.provider_id == f"aws:///{zone}/{running.instance_id}" == running.provider_id
    assert (meta.instance_type, meta.zone, meta.region) == ("t3.large", zone, "us-east-1")
    assert ("InternalIP", instance["PrivateIpAddress"]) in [(a.type, a.address) for a in meta.node_addresses]
    assert instances.instance_metadata(gone) is None
    assert lab.proxy.writes() == Counter()  # InstancesV2 only reads

"""The cloud-provider face on AWS: ``cloudprovider.LoadBalancer``, ``Routes`` and
``InstancesV2`` (k8s.io/cloud-provider) built only from generated tasks, run by the kOps
executor over the one engine; nothing here calls an SDK.

Per Service, as cloud-provider-aws makes an NLB (``pkg/providers/v1/aws_loadbalancer.go``):
the network load balancer named :func:`~.service.default_load_balancer_name`, a target group
per port (named as ``buildTargetGroupName`` names it) holding the nodes' instances on the node
port as its targets, a listener per port forwarding to it,
and a security group of the load balancer's own (``k8s-elb-<name>``) letting the Service's
source ranges reach its ports, allowed into the nodes' group on the node-port range. Each is
tagged ``kubernetes.io/cluster/<id>=owned`` and ``kubernetes.io/service-name=<ns>/<name>``,
and the second tag is part of ownership (:meth:`~..contract.ownership.Owner.within`): what
one Service's calls find, change, prune or delete is only ever that Service's, never another
Service's of the same cluster nor another cluster's, and (the marker a narrowed owner writes)
never a cluster-wide prune's, kOps' over the same cluster id. A port no longer declared loses
its listener, target group and ingress rule through the executor's prune; the load balancer
stays.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ...aws.ec2 import Instance, RouteTable, SecurityGroup, SecurityGroupIngress
from ...aws.ec2 import Route as RouteTask
from ...aws.elbv2 import Listener, LoadBalancer, TargetGroup
from ..contract.context import Context
from ..kops.executor import Executor
from ..kops.targets import CloudTarget
from ..kops.task import Task
from .face import LoadBalancers
from .service import (
    Ingress,
    InstanceMetadata,
    LoadBalancerStatus,
    Node,
    NodeAddress,
    Route,
    Service,
)

NODE_PORTS = (30000, 32767)  # the API server's default --service-node-port-range
HEALTH_CHECK = ("TCP", 30)  # an NLB target group's default health check: protocol, interval
_INVALID_ELBV2_NAME = re.compile(r"[^a-zA-Z0-9-]")


@dataclass(frozen=True)
class AwsCluster:
    """What the face needs to know of the cluster its Services and nodes are in."""

    cluster_id: str
    """The cluster's id: the ``kubernetes.io/cluster/<id>`` tag."""
    vpc_id: str
    """The cluster's VPC: where target groups and security groups go."""
    subnet_ids: tuple[str, ...]
    """The subnets a load balancer is placed in."""
    node_security_group_id: str
    """The nodes' security group, into which load balancers' traffic is allowed."""
    route_table_id: str = ""
    """The route table pod routes go in (Routes)."""


def target_group_name(
    cluster_id: str, service: Service, port: int, node_port: int, protocol: str
) -> str:
    """cloud-provider-aws' ``buildTargetGroupName``: ``k8s-<ns>-<name>-<hash>``, the hash over
    everything that, changed, needs a new target group (ports, protocols, health check)."""
    hasher = hashlib.sha1()
    for part in (cluster_id, service.namespace, service.name, str(port), str(node_port), protocol,
                 "instance", HEALTH_CHECK[0], str(HEALTH_CHECK[1])):  # fmt: skip
        hasher.update(part.encode())
    namespace = _INVALID_ELBV2_NAME.sub("", service.namespace)[:8]
    name = _INVALID_ELBV2_NAME.sub("", service.name)[:8]
    return f"k8s-{namespace}-{name}-{hasher.hexdigest()[:10]}"


class AwsLoadBalancers(LoadBalancers):
    """``cloudprovider.LoadBalancer`` on AWS (see the module's doc)."""

    def __init__(
        self,
        context: Context,
        cluster: AwsCluster,
        executor: Callable[[CloudTarget], Executor] = Executor,
    ) -> None:
        super().__init__(context, cluster.cluster_id, executor)
        self.cluster = cluster

    def tasks(self, service: Service, nodes: Sequence[Node]) -> list[Task]:
        """Every resource the Service's load balancer is made of, as generated tasks."""
        c, name = self.cluster, self.get_load_balancer_name(service)
        group = SecurityGroup(
            name=f"k8s-elb-{name}",
            description=f"Security group for Kubernetes ELB {name} ({service.key})",
            vpc=c.vpc_id,
        )
        protocols = sorted({p.protocol for p in service.ports})
        tasks: list[Task] = [group]
        for protocol in protocols:  # the node-port range, from the load balancer's group only
            tasks.append(
                SecurityGroupIngress(
                    name=f"{name}-nodeports-{protocol.lower()}",
                    security_group=c.node_security_group_id,
                    ip_permissions=[
                        {
                            "IpProtocol": protocol.lower(),
                            "FromPort": NODE_PORTS[0],
                            "ToPort": NODE_PORTS[1],
                            "UserIdGroupPairs": [{"GroupId": group}],
                        }
                    ],
                )
            )
        balancer = LoadBalancer(
            name=name,
            type_="network",
            scheme="internal" if service.internal else "internet-facing",
            subnets=list(c.subnet_ids),
            security_groups=[group],  # type: ignore[list-item]
        )
        tasks.append(balancer)
        for p in service.ports:
            for cidr in service.source_ranges:
                tasks.append(
                    SecurityGroupIngress(
                        name=f"{name}-{p.protocol.lower()}-{p.port}-{cidr}",
                        security_group=group,
                        ip_protocol=p.protocol.lower(),
                        from_port=p.port,
                        to_port=p.port,
                        cidr_ip=cidr,
                    )
                )
            target = TargetGroup(
                name=target_group_name(c.cluster_id, service, p.port, p.node_port, p.protocol),
                protocol=p.protocol,
                port=p.node_port,
                vpc_id=c.vpc_id,
                target_type="instance",
                targets=[{"Id": n.instance_id, "Port": p.node_port} for n in nodes],
            )
            listener = Listener(
                name=f"{name}-{p.port}",
                load_balancer=balancer,
                port=p.port,
                protocol=p.protocol,
                default_actions=[{"Type": "forward", "TargetGroupArn": target}],
            )
            tasks += [target, listener]
        return tasks

    def balancer(self, service: Service) -> Task:
        return LoadBalancer(name=self.get_load_balancer_name(service))

    def status(self, balancer: Task) -> LoadBalancerStatus:
        dns = balancer.observed.get("DNSName")
        return LoadBalancerStatus((Ingress(hostname=str(dns)),) if dns else ())


class AwsRoutes:
    """``cloudprovider.Routes`` on AWS: pod ranges routed to instances in the cluster's route
    table, which is only read; a route is the cluster's when its table is (routes carry no
    tags), so a table of no cluster's is never written to."""

    def __init__(
        self,
        context: Context,
        cluster: AwsCluster,
        executor: Callable[[CloudTarget], Executor] = Executor,
    ) -> None:
        self.context = replace(context, cluster=cluster.cluster_id)
        self.cluster, self.executor = cluster, executor

    def _table(self) -> RouteTable:
        table_id = self.cluster.route_table_id
        return RouteTable(name=table_id, id=table_id, shared=True)

    def _task(self, route: Route) -> RouteTask:
        return RouteTask(
            name=route.destination_cidr,
            route_table=self.cluster.route_table_id,  # owned through it: the cluster's table
            destination_cidr_block=route.destination_cidr,
            instance=route.target_node,
        )

    def list_routes(self) -> list[Route]:
        """``ListRoutes``: the table's routes that send a range to an instance."""
        table = self._table()
        table.find(self.context)
        found = table.observed.get("Routes") or []
        return [
            Route(r["DestinationCidrBlock"], r["InstanceId"], r["DestinationCidrBlock"])
            for r in found
            if isinstance(r, dict) and r.get("InstanceId") and r.get("DestinationCidrBlock")
        ]

    def create_route(self, route: Route) -> None:
        """``CreateRoute``: the route, once; a route already there as declared is done."""
        self.executor(CloudTarget(self.context)).run([self._task(route)])

    def delete_route(self, route: Route) -> None:
        """``DeleteRoute``: that route only; gone already is done."""
        self.executor(CloudTarget(self.context)).delete([self._task(route)])


class AwsInstances:
    """``cloudprovider.InstancesV2`` on AWS, from the generated Instance task's read: a node's
    instance is found by the id in its provider id, only read."""

    def __init__(self, context: Context, cluster: AwsCluster) -> None:
        self.context = replace(context, cluster=cluster.cluster_id)

    def _instance(self, node: Node) -> Instance | None:
        task = Instance(name=node.instance_id, id=node.instance_id, shared=True)
        return task if task.find(self.context) is not None else None

    def instance_exists(self, node: Node) -> bool:
        """``InstanceExists``: there is a live instance (a terminated one is not)."""
        return self._instance(node) is not None

    def instance_shutdown(self, node: Node) -> bool:
        """``InstanceShutdown``: the instance is stopped (or stopping)."""
        found = self._instance(node)
        state = found.observed.get("State") if found is not None else None
        return isinstance(state, dict) and state.get("Name") in ("stopped", "stopping")

    def instance_metadata(self, node: Node) -> InstanceMetadata | None:
        """``InstanceMetadata``: provider id, type, addresses, zone and region; None when there
        is no such instance."""
        found = self._instance(node)
        if found is None:
            return None
        seen = found.observed
        zone = str((seen.get("Placement") or {}).get("AvailabilityZone") or "")
        addresses = tuple(
            NodeAddress(kind, str(seen[member]))
            for kind, member in (
                ("InternalIP", "PrivateIpAddress"),
                ("ExternalIP", "PublicIpAddress"),
                ("InternalDNS", "PrivateDnsName"),
                ("ExternalDNS", "PublicDnsName"),
            )
            if seen.get(member)
        )
        return InstanceMetadata(
            provider_id=f"aws:///{zone}/{node.instance_id}",
            instance_type=str(seen.get("InstanceType") or ""),
            node_addresses=addresses,
            zone=zone,
            region=self.context.region,
        )

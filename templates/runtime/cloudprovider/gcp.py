"""The cloud-provider face on GCP: ``cloudprovider.LoadBalancer``, ``Routes`` and ``InstancesV2``
as cloud-provider-gcp has them (``providers/gce``), built only from generated tasks run by the
kOps executor over the one engine; nothing here calls an SDK.

Per Service, as ``ensureExternalLoadBalancer`` makes a network load balancer: a regional
address, the forwarding rule sending the Service's port range to a target pool of the nodes'
instances, the pool's HTTP health check, a firewall letting the Service's source ranges reach
the nodes on its ports (``k8s-fw-<name>``) and one letting Google's health checkers reach the
check's port (``k8s-<name>-http-hc``). None of these carries labels, so their owner is recorded
as the cloud-provider records it, JSON in their description (``Owner.cloud_provider_gce``:
``kubernetes.io/service-name`` and the cluster's id): what one Service's calls find, change,
prune or delete is only ever that Service's. A port change replaces the forwarding rule (its
ports are fixed once made, as upstream deletes and recreates it) on the same address; the
pool, its check and the firewalls are changed in place. Each Service has a check of its own
(upstream's for ``externalTrafficPolicy: Local``; for ``Cluster`` upstream shares one per
cluster, ``k8s-<cluster>-node``, on kube-proxy's port), so no Service's delete touches another's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ...gcp.compute import Address, Firewall, ForwardingRule, HttpHealthCheck, Instance, TargetPool
from ...gcp.compute import Route as RouteTask
from ..contract.context import Context
from ..contract.ownership import Owner
from ..kops.executor import Executor
from ..kops.targets import CloudTarget
from ..kops.task import Task
from ..kops.translate import owner_of, pass_core
from .face import LoadBalancers
from .service import (
    Ingress,
    InstanceMetadata,
    LoadBalancerStatus,
    Node,
    NodeAddress,
    Route,
    Service,
    default_load_balancer_name,
)

# Google's health checkers (cloud-provider-gcp's l4LbSrcRngsFlag default) and kube-proxy's check
CHECKERS = ("130.211.0.0/22", "35.191.0.0/16", "209.85.152.0/22", "209.85.204.0/22")
NODES_CHECK = ("/healthz", 10256)  # GetNodesHealthCheckPath, GetNodesHealthCheckPort
# the check's times are upstream's gceHcCheckIntervalSeconds, ...TimeoutSeconds, ...Thresholds


@dataclass(frozen=True)
class GcpCluster:
    """What the face needs to know of the cluster its Services and nodes are in."""

    cluster_id: str
    """The cluster's id (``kubernetes.io/cluster-id`` in descriptions; routes' name prefix)."""
    network: str
    """The cluster's network, by name: where firewalls and routes go."""
    node_tags: tuple[str, ...]
    """The nodes' network tags, which the firewalls allow traffic to."""
    zones: tuple[str, ...] = ()
    """The zones nodes are in, where Routes look for a route's instance."""


def instance_link(node: Node) -> str:
    """The instance behind a node (``gce://<project>/<zone>/<name>``), as a relative name."""
    project, zone, name = node.provider_id.removeprefix("gce://").split("/")[:3]
    return f"projects/{project}/zones/{zone}/instances/{name}"


class GcpLoadBalancers(LoadBalancers):
    """``cloudprovider.LoadBalancer`` on GCP (see the module's doc)."""

    def __init__(
        self,
        context: Context,
        cluster: GcpCluster,
        executor: Callable[[CloudTarget], Executor] = Executor,
    ) -> None:
        owned = replace(context, owner=Owner.cloud_provider_gce(cluster.cluster_id))
        super().__init__(owned, cluster.cluster_id, executor)
        self.cluster = cluster

    def tasks(self, service: Service, nodes: Sequence[Node]) -> list[Task]:
        """Every resource the Service's load balancer is made of, as generated tasks."""
        c, name = self.cluster, default_load_balancer_name(service)
        path, port = NODES_CHECK
        port = service.health_check_node_port or port
        check = HttpHealthCheck(
            name=name, port=port, request_path=path, check_interval_sec=8, timeout_sec=1,
            healthy_threshold=1, unhealthy_threshold=3,
        )  # fmt: skip
        ports = [p.port for p in service.ports]
        protocol = service.ports[0].protocol if service.ports else "TCP"
        pool = TargetPool(
            name=name,
            instances=[instance_link(n) for n in nodes],
            health_checks=[check],
            session_affinity="NONE",
        )
        address = Address(name=name)
        network = f"projects/{self.context.project}/global/networks/{c.network}"
        walls = [
            Firewall(name=f"k8s-fw-{name}", network=network,
                     source_ranges=list(service.source_ranges), target_tags=list(c.node_tags),
                     allowed=[{"IPProtocol": protocol.lower(), "ports": [str(p) for p in ports]}]),
            Firewall(name=f"k8s-{name}-http-hc", network=network, source_ranges=list(CHECKERS),
                     target_tags=list(c.node_tags),
                     allowed=[{"IPProtocol": "tcp", "ports": [str(port)]}]),
        ]  # fmt: skip
        rule = ForwardingRule(
            name=name,
            ip_address=address,
            ip_protocol=protocol,
            port_range=f"{min(ports, default=0)}-{max(ports, default=0)}",
            target=pool,  # type: ignore[arg-type]
            recreate=True,
        )
        return [address, *walls, check, pool, rule]

    def balancer(self, service: Service) -> Task:
        return ForwardingRule(name=default_load_balancer_name(service))

    def status(self, balancer: Task) -> LoadBalancerStatus:
        ip = balancer.observed.get("IPAddress")
        return LoadBalancerStatus((Ingress(ip=str(ip)),) if ip else ())


class GcpRoutes:
    """``cloudprovider.Routes`` on GCP: a node's pod range routed to its instance, named
    ``<cluster>-<name hint>`` and described ``k8s-node-route``, as cloud-provider-gcp names
    them; the cluster's are those with its name's prefix, in its network, so described."""

    def __init__(
        self,
        context: Context,
        cluster: GcpCluster,
        executor: Callable[[CloudTarget], Executor] = Executor,
    ) -> None:
        owner = Owner.node_routes(cluster.cluster_id)
        self.context = replace(context, cluster=cluster.cluster_id, owner=owner)
        self.cluster, self.executor = cluster, executor
        self.prefix = cluster.cluster_id[:26] + "-"  # truncateClusterName

    def list_routes(self) -> list[Route]:
        """``ListRoutes``: one listing of the project's routes, the cluster's among them."""
        task, network = RouteTask(name=self.prefix), f"/global/networks/{self.cluster.network}"
        with self.context.batched_reads():
            found = pass_core(task, self.context).listed_owned(owner_of(task, self.context))
        return [
            Route(str(r["name"]), str(r["nextHopInstance"]).rsplit("/", 1)[-1], str(r["destRange"]))
            for r in found or []
            if str(r.get("name")).startswith(self.prefix)
            and str(r.get("network", "")).endswith(network) and r.get("nextHopInstance")
        ]  # fmt: skip

    def create_route(self, route: Route, name_hint: str) -> None:
        """``CreateRoute``: the route to the instance named ``route.target_node`` (looked for
        in the cluster's zones), once; one already there as declared is done."""
        found = (_instance(self.context, route.target_node, z) for z in self.cluster.zones)
        instance = next(i for i in found if i is not None)
        task = RouteTask(
            name=self.prefix + name_hint,
            dest_range=route.destination_cidr,
            network=f"projects/{self.context.project}/global/networks/{self.cluster.network}",
            next_hop_instance=str(instance.observed["selfLink"]),  # as reads give it
            priority=1000,
        )
        self.executor(CloudTarget(self.context)).run([task])

    def delete_route(self, route: Route) -> None:
        """``DeleteRoute``: that route only, when it is the cluster's; gone already is done."""
        self.executor(CloudTarget(self.context)).delete([RouteTask(name=route.name)])


def _instance(context: Context, name: str, zone: str) -> Instance | None:
    task = Instance(name=name, zone=zone, shared=True)
    return task if task.find(context) is not None else None


class GcpInstances:
    """``cloudprovider.InstancesV2`` on GCP, from the generated Instance task's read."""

    def __init__(self, context: Context, cluster: GcpCluster) -> None:
        self.context = replace(context, cluster=cluster.cluster_id)

    def _instance(self, node: Node) -> Instance | None:
        _, zone, name = node.provider_id.removeprefix("gce://").split("/")[:3]
        return _instance(self.context, name, zone)

    def instance_exists(self, node: Node) -> bool:
        """``InstanceExists``: there is such an instance, whatever its status."""
        return self._instance(node) is not None

    def instance_shutdown(self, node: Node) -> bool:
        """``InstanceShutdown``: the instance is stopped (``TERMINATED``) or stopping."""
        found = self._instance(node)
        return found is not None and found.observed.get("status") in ("TERMINATED", "STOPPING")

    def instance_metadata(self, node: Node) -> InstanceMetadata | None:
        """``InstanceMetadata``: provider id, machine type, addresses, zone and region."""
        found = self._instance(node)
        if found is None:
            return None
        seen, (project, zone, name) = found.observed, node.provider_id[6:].split("/")[:3]
        nics = [n for n in seen.get("networkInterfaces") or [] if isinstance(n, dict)]
        addresses = [
            NodeAddress("InternalIP", str(n["networkIP"])) for n in nics if n.get("networkIP")
        ]
        addresses += [NodeAddress("ExternalIP", str(a["natIP"])) for n in nics
                      for a in n.get("accessConfigs") or [] if a.get("natIP")]  # fmt: skip
        return InstanceMetadata(
            provider_id=f"gce://{project}/{zone}/{name}",
            instance_type=str(seen.get("machineType", "")).rsplit("/", 1)[-1],
            node_addresses=(*addresses, NodeAddress("Hostname", name)),
            zone=zone,
            region=zone.rsplit("-", 1)[0],
        )


__all__ = ["GcpCluster", "GcpInstances", "GcpLoadBalancers", "GcpRoutes"]

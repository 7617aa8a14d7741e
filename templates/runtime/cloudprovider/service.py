"""What the cloud-provider face takes and answers, cloud-neutral: Service-like and Node-like
inputs (the parts of ``v1.Service`` and ``v1.Node`` a cloud-provider reads) and the Go
interfaces' answers (``v1.LoadBalancerStatus``, ``cloudprovider.Route``,
``cloudprovider.InstanceMetadata``), as small frozen dataclasses; and the load balancer's name as
``k8s.io/cloud-provider`` makes it (``DefaultLoadBalancerName``)."""

from __future__ import annotations

from dataclasses import dataclass

SERVICE_TAG = "kubernetes.io/service-name"
"""The tag or label naming the Service (``<namespace>/<name>``) a load balancer serves."""


@dataclass(frozen=True)
class ServicePort:
    """One ``spec.ports[]`` entry: the load balancer's port, the nodes' port behind it."""

    port: int
    """The port the load balancer listens on."""
    node_port: int
    """The port every node forwards to the Service (the targets' port)."""
    protocol: str = "TCP"
    """``TCP`` or ``UDP``."""
    name: str = ""
    """The port's name within the Service."""


@dataclass(frozen=True)
class Service:
    """A Service of type LoadBalancer, as the face reads it."""

    namespace: str
    """The Service's namespace."""
    name: str
    """The Service's name."""
    uid: str
    """``metadata.uid``: what the load balancer's name is made of."""
    ports: tuple[ServicePort, ...]
    """``spec.ports``."""
    source_ranges: tuple[str, ...] = ("0.0.0.0/0",)
    """``spec.loadBalancerSourceRanges``: who may reach the load balancer."""
    internal: bool = False
    """An internal load balancer (the provider's "internal" annotation)."""
    health_check_node_port: int = 0
    """``spec.healthCheckNodePort`` (``externalTrafficPolicy: Local``); 0: kube-proxy's."""

    @property
    def key(self) -> str:
        """``<namespace>/<name>``, as ``types.NamespacedName`` prints it."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class Node:
    """A Node, as the face reads it."""

    name: str
    """The Node's name."""
    provider_id: str
    """``spec.providerID`` (``aws:///us-east-1a/i-0abc``, ``gce://<project>/<zone>/<name>``):
    the instance behind the node."""
    pod_cidr: str = ""
    """``spec.podCIDR``: what a route sends to this node."""

    @property
    def instance_id(self) -> str:
        """The provider's id of the instance: the last part of ``provider_id``."""
        return self.provider_id.rstrip("/").rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Ingress:
    """One ``status.loadBalancer.ingress[]`` entry."""

    hostname: str = ""
    """The load balancer's DNS name, where it has one."""
    ip: str = ""
    """Its address, where it has one instead."""


@dataclass(frozen=True)
class LoadBalancerStatus:
    """``status.loadBalancer``: where the Service is reachable."""

    ingress: tuple[Ingress, ...] = ()
    """The load balancer's addresses."""


@dataclass(frozen=True)
class Route:
    """``cloudprovider.Route``: a node's pod range sent to its instance."""

    name: str
    """The route's name (its destination, here)."""
    target_node: str
    """The instance id the route sends to (``types.NodeName`` on the cloud's side)."""
    destination_cidr: str
    """The node's pod range."""


@dataclass(frozen=True)
class NodeAddress:
    """``v1.NodeAddress``."""

    type: str
    """``InternalIP``, ``ExternalIP``, ``InternalDNS``, ``ExternalDNS``, ``Hostname``."""
    address: str
    """The address."""


@dataclass(frozen=True)
class InstanceMetadata:
    """``cloudprovider.InstanceMetadata``."""

    provider_id: str
    """``spec.providerID`` for the node."""
    instance_type: str
    """The machine type (``node.kubernetes.io/instance-type``)."""
    node_addresses: tuple[NodeAddress, ...]
    """The node's addresses."""
    zone: str
    """``topology.kubernetes.io/zone``."""
    region: str
    """``topology.kubernetes.io/region``."""


def default_load_balancer_name(service: Service) -> str:
    """``cloudprovider.DefaultLoadBalancerName``: "a" and the Service's UID without dashes, cut
    to 32 characters (what the AWS provider's ``GetLoadBalancerName`` returns)."""
    return ("a" + service.uid).replace("-", "")[:32]

"""``cloudprovider.LoadBalancer``'s verbs, the same on every cloud: a Service's load balancer is
the generated tasks a cloud's face declares for it (:meth:`LoadBalancers.tasks`), run by the kOps
executor with the owner narrowed to the Service (``kubernetes.io/service-name``), so that its
calls find, change, prune and delete only that Service's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..contract.context import Context
from ..kops.executor import Executor
from ..kops.prune import orphans
from ..kops.report import Report
from ..kops.targets import CloudTarget
from ..kops.task import Task
from .service import SERVICE_TAG, LoadBalancerStatus, Node, Service, default_load_balancer_name


class LoadBalancers:
    """The verbs over a cloud's :meth:`tasks`, :meth:`balancer` and :meth:`status`.
    ``executor`` makes the executor each call runs (a test's, without pauses)."""

    def __init__(
        self,
        context: Context,
        cluster_id: str,
        executor: Callable[[CloudTarget], Executor] = Executor,
    ) -> None:
        self.context, self.cluster_id, self.executor = context, cluster_id, executor
        self.last_report: Report | None = None
        """What the last call did: per task, found / created / updated / deleted; the calls."""

    def tasks(self, service: Service, nodes: Sequence[Node]) -> list[Task]:
        """Every resource the Service's load balancer is made of, as generated tasks."""
        raise NotImplementedError

    def balancer(self, service: Service) -> Task:
        """The task whose resource says the load balancer exists, and where it is reached."""
        raise NotImplementedError

    def status(self, balancer: Task) -> LoadBalancerStatus:
        """The Service's ``status.loadBalancer``, from the balancer as found."""
        raise NotImplementedError

    def context_for(self, service: Service) -> Context:
        """The Service's share of the cluster: the same clients, owner narrowed to it."""
        marks = {SERVICE_TAG: service.key}
        return replace(self.context, cluster=self.cluster_id, owner_marks=marks)

    def get_load_balancer_name(self, service: Service) -> str:
        """``GetLoadBalancerName``."""
        return default_load_balancer_name(service)

    def _run(self, context: Context, step: Callable[[Executor], Report]) -> Report:
        self.last_report = step(self.executor(CloudTarget(context)))
        return self.last_report

    def get_load_balancer(self, service: Service) -> tuple[LoadBalancerStatus | None, bool]:
        """``GetLoadBalancer``: the status, and whether the Service's load balancer exists
        (one of the same name that is not the Service's is an error naming it, never its)."""
        balancer = self.balancer(service)
        if balancer.find(self.context_for(service)) is None:
            return None, False
        return self.status(balancer), True

    def ensure_load_balancer(self, service: Service, nodes: Sequence[Node]) -> LoadBalancerStatus:
        """``EnsureLoadBalancer``: make what is missing, change what differs, and remove what
        the Service's ports no longer need."""
        tasks, key = self.tasks(service, nodes), self.balancer(service).key
        self._run(self.context_for(service), lambda e: e.run(tasks, prune=True))
        return self.status(next(t for t in tasks if t.key == key))

    def update_load_balancer(self, service: Service, nodes: Sequence[Node]) -> None:
        """``UpdateLoadBalancer`` (the nodes changed): the same convergence, which writes only
        what differs: the targets added and removed."""
        self.ensure_load_balancer(service, nodes)

    def ensure_load_balancer_deleted(self, service: Service) -> None:
        """``EnsureLoadBalancerDeleted``: delete exactly what the Service owns (what it declares
        now, then whatever else carries its owner's marks), children first; gone is done."""
        context = self.context_for(service)
        tasks = self.tasks(service, ())
        self._run(context, lambda e: e.delete(tasks))
        left = orphans(context, tasks)
        if left:
            self._run(context, lambda e: e.delete(left))

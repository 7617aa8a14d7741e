"""Azure flavours of the kOps task and the reconciler: the same logic over an
:class:`~..azure.core.AzureCore`.

An ARM resource is named by its ``name`` (the task's name) at its path: the context's
subscription, the task's resource group, a parent resource (a subnet's network), which other
tasks hold by name (``reference_value``). Ownership is the cluster's tags, spelled as ARM
allows (tag names take no ``/``): ``KubernetesCluster=<cluster>`` and
``kubernetes.io_cluster_<cluster>=owned``, as cluster-api's Azure provider writes
``sigs.k8s.io_cluster-api-provider-azure_cluster_<cluster>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..azure.arm import Arm
from ..azure.core import AzureCore
from ..capi.reconciler import Reconciler
from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.ownership import OWNED, Owner
from ..contract.spec import ResourceSpec
from ..kops.task import Task


def azure_owner(cluster: str) -> Owner:
    key = f"kubernetes.io_cluster_{cluster}"
    return Owner(f"cluster {cluster}", key, OWNED, {"KubernetesCluster": cluster, key: OWNED})


def capz_owner(cluster: str) -> Owner:
    """cluster-api's Azure provider's ownership tag (ARM tag names take no ``/``)."""
    key = f"sigs.k8s.io_cluster-api-provider-azure_cluster_{cluster}"
    return Owner(f"cluster {cluster}", key, OWNED, {key: OWNED})


def azure_core(context: Context, spec: ResourceSpec) -> AzureCore:
    arm = Arm(
        context.subscription,
        transport=context.azure_transport,
        credential_policy=context.azure_credential_policy,
        calls=context.calls,
    )
    return AzureCore(spec, arm)


@dataclass(kw_only=True, eq=False, repr=False)
class AzureTask(Task):
    """Base of the Azure tasks."""

    def owner(self, context: Context) -> Owner:
        return azure_owner(context.cluster)

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        return azure_core(context, spec)

    @property
    def resource_id(self) -> str | None:
        """Its ARM id (its path), once found or created."""
        value = self.observed.get("id")
        return None if value is None else str(value)

    def reference_value(self) -> str | None:
        """Other tasks hold it by its name: the path parameter naming it in theirs."""
        return self.name


@dataclass
class AzureReconciler(Reconciler):
    """Azure: calls through azure-core; ownership is CAPZ's tag; ARM's operations are followed
    to their end within the pass (nothing is left pending)."""

    @staticmethod
    def owner_for(cluster: str) -> Owner:
        return capz_owner(cluster)

    def core(self) -> Core:
        return azure_core(self.context, self.spec)

    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core:
        return azure_core(self.context, resource)

"""AWS flavours of the task and the reconciler: the same logic over an :class:`AwsCore`.

Ownership is kOps' for tasks (``KubernetesCluster`` and ``kubernetes.io/cluster/<cluster>=owned``)
and CAPA's for reconcilers (``sigs.k8s.io/cluster-api-provider-aws/cluster/<cluster>=owned``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..aws.core import AwsCore
from ..capi.reconciler import Reconciler
from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.ownership import Owner
from ..contract.spec import FieldSpec, ResourceSpec
from ..kops.task import Task
from ..kops.translate import field_value_named


def aws_core(context: Context, spec: ResourceSpec) -> AwsCore:
    """A core over the context's clients: botocore's retries as configured, and off for
    mutating calls that carry no idempotency token."""
    return AwsCore(
        spec,
        context.client(spec.service),
        context.retry,
        once=context.client(spec.service, sdk_retries=False),
        snapshots=context.snapshots,
    )


@dataclass(kw_only=True, eq=False, repr=False)
class AwsTask(Task):
    """Base of the generated AWS tasks: calls go through botocore."""

    def owner(self, context: Context) -> Owner:
        return Owner.kops_aws(context.cluster)

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        return aws_core(context, spec)

    @property
    def resource_id(self) -> str | None:
        """The primary id once found or created. A kind whose primary member is the task's own
        name (a log delivery source's ``name``) has no ``id`` of its own: its id is that name,
        once the resource exists (what it refers to waits until then)."""
        if "id" in self.__dataclass_fields__:
            value = field_value_named(self, "id")
            return None if value is None else str(value)
        primary = self.spec.primary
        if len(primary) == 1 and self.spec.field(primary[0]).attr == "name" and self.observed:
            return self.name
        return None

    def reference_to(self, holder: FieldSpec, task: Task) -> str | None:
        """A member that takes an ARN (``holds_arn``, decided by the generator's
        aws.reference-holds-arn: a subscription filter's ``destinationArn``) holds the ARN of
        what it refers to where that kind's id is something else (a log destination's name):
        sending the id would name nothing. Any other holds the id."""
        arn = task.spec.arn
        if holder.holds_arn and arn and arn not in task.spec.primary:
            value = task.observed.get(arn)
            return str(value) if value else None
        return task.reference_value()


@dataclass
class AwsReconciler(Reconciler):
    """AWS: calls through botocore; ownership is CAPA's tag."""

    @staticmethod
    def owner_for(cluster: str) -> Owner:
        return Owner.capa(cluster)

    def core(self) -> Core:
        return aws_core(self.context, self.spec)

    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core:
        return aws_core(self.context, resource)

"""Google Cloud flavours of the task and the reconciler: same logic, another core.

A GCP resource is named by its ``name`` (the task's name) within a scope: the project, and a
region or zone from the task (``region=``/``zone=``) or the context. Other resources refer to
it by its selfLink; both sides of a diff hold references as full URLs on the client's base
(:mod:`..gcp.refs`), so a relative name, Google's ``www.googleapis.com`` link and the
document's own URL are one reference. A field read back as a member of what it refers to (a
forwarding rule's ``IPAddress``: "When reading an IPAddress, the API always returns the IP
address number") holds that member. Ownership is kOps' label ``k8s-io-cluster-name`` for tasks
and CAPG's ``capg-cluster-<cluster>: owned`` for reconcilers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..capi.reconciler import Reconciler
from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.ownership import Owner
from ..contract.spec import FieldSpec, Mutability, ResourceSpec
from ..contract.state import State
from ..gcp.core import GcpCore
from ..gcp.refs import canonical_state, document_base
from ..kops.task import Task
from ..kops.translate import field_value_named


def scope_of(context: Context, overrides: Mapping[str, Any]) -> dict[str, str]:
    scope = context.scope()
    scope.update({k: str(v) for k, v in overrides.items() if k in scope and v})
    return scope


@dataclass(kw_only=True, eq=False, repr=False)
class GcpTask(Task):
    """Base of the generated GCP tasks."""

    document: ClassVar[Path]  # the shipped discovery document the client is built from

    def scope(self, context: Context) -> dict[str, str]:
        return scope_of(
            context, {k: field_value_named(self, k) for k in ("project", "region", "zone")}
        )

    def owner(self, context: Context) -> Owner:
        return Owner.kops_gce(context.cluster)

    def placement(self) -> dict[str, Any]:
        return {
            k: field_value_named(self, k)
            for k in ("region", "zone")
            if k in self.__dataclass_fields__
        }

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        core = GcpCore(
            spec,
            context.gcp_client(str(self.document)),
            self.scope(context),
            context.retry,
            operation_timeout=context.operation_timeout,
            document=str(self.document),
        )
        core.calls = context.calls
        return core

    def desired(self, dry_run: bool = False) -> State:
        """References as full URLs on the document's base."""
        state = super().desired(dry_run)
        return canonical_state(self.spec, state, document_base(str(self.document)))

    def reference_to(self, holder: FieldSpec, task: Task) -> str | None:
        """A field holding a member of what it refers to holds that member: the Address's IP
        (read back as it), the parent's name a call's path takes (a record set's managed zone);
        any other holds its selfLink."""
        if holder.reference_member:
            value = task.observed.get(holder.reference_member)
            return str(value) if value is not None else None
        return task.reference_value()

    @property
    def resource_id(self) -> str | None:
        """A compute resource's name is the task's; a resource-name API's (iam) is the full path
        the server made, known once found or created."""
        primary = self.spec.field(self.spec.primary[0]) if self.spec.primary else None
        if primary is not None and primary.mutability is Mutability.READ_ONLY:
            value = self.observed.get(primary.name)
            return str(value) if value else None
        return self.name

    def reference_value(self) -> str | None:
        """Other resources hold its canonical reference (``spec.arn``): compute's selfLink, a
        resource-name API's whole ``name``; known once it is found or created."""
        link = self.observed.get(self.spec.arn or "selfLink")
        return str(link) if link else None


@dataclass
class GcpReconciler(Reconciler):
    """GCP: calls through googleapiclient; long-running operations requeue instead of waiting."""

    document: ClassVar[Path]
    scope_keys: ClassVar[tuple[str, ...]] = ("project", "region", "zone")  # see scope_of

    @staticmethod
    def owner_for(cluster: str) -> Owner:
        return Owner.capg(cluster)

    def core_for(self, spec: Mapping[str, Any]) -> Core:
        return self.parent_core(spec, self.spec)

    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core:
        client = self.context.gcp_client(str(self.document))
        return GcpCore(
            resource,
            client,
            scope_of(self.context, spec),
            self.context.retry,
            wait=False,
            operation_timeout=self.context.operation_timeout,
            document=str(self.document),
        )

    def desired(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> State:
        """References as full URLs on the document's base (relative names resolved in the
        spec's project)."""
        state = super().desired(spec, status)
        project = scope_of(self.context, spec).get("project", "")
        return canonical_state(self.spec, state, document_base(str(self.document)), project)

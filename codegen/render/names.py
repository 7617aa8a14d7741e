"""Names in generated code must not collide: not with each other after conversion, not with the
runtime's own.

Two API names can become one Python name (``CidrBlock`` and ``CIDRBlock`` are both
``cidr_block``; ``Id`` is escaped to ``id_``, which is what ``Id_`` already is), and an API name
can land on a name the runtime uses (a field ``Lifecycle`` on a task, a resource renamed ``Task``).
Either would generate code where one silently shadows the other; here it is an error that names
both inputs. A name the runtime's tasks define is escaped with a trailing ``_``, as keywords are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from codegen.errors import TasklayerError
from codegen.model import Field, Resource, Service
from codegen.naming import PythonIdentifier, class_name, module_name


class NamedField(Protocol):
    """What the collision checks read of a field's view (render/field_view.py ``FieldView``):
    the names it becomes. The views call these checks, so this module names no view."""

    @property
    def field(self) -> Field: ...

    @property
    def attr(self) -> PythonIdentifier: ...

    @property
    def on_task(self) -> bool: ...

    @property
    def is_tags(self) -> bool: ...

    @property
    def crd_key(self) -> str: ...

    @property
    def ref_key(self) -> str | None: ...


# The kOps face's public verbs and attributes (kops.task.Task, wiring.aws.AwsTask,
# wiring.gcp.GcpTask), and ``id``, which generated tasks add: nothing of the engine is on a task
# (its state is kept beside it, kops/translate.py). A field attribute equal to one of these would
# override it. tests/test_safe_path.py compares this with the runtime, so a name the runtime gains
# cannot be missed.
RUNTIME_TASK_NAMES = frozenset(
    {
        "check_changes",
        "core",
        "core_for",
        "delete",
        "dependencies",
        "desired",
        "document",
        "fields",
        "find",
        "id",
        "key",
        "lifecycle",
        "locate",
        "missing_fields",
        "name",
        "observed",
        "owned",
        "owner",
        "placement",
        "recreate",
        "reference_to",
        "reference_value",
        "resource_id",
        "returned",
        "run",
        "scope",
        "shared",
        "spec",
    }
)

# Keys every custom resource spec / status has besides the fields (see render/crd.py).
SPEC_KEYS = ("name", "shared", "additionalTags")
# createAttempt / createReturned / operation: the runtime's record of a create under way and of
# an operation running (capi/reconciler_write.py), which must survive the server's pruning
STATUS_KEYS = ("conditions", "tags", "createAttempt", "createReturned", "operation")

# Modules and packages a service folder already has beside one module per resource.
SERVICE_MODULES = frozenset({"core", "reconcilers", "operator"})

# Per resource, the classes generated for it: <Class>, <Class>Core, <Class>Reconciler, ...
CLASS_SUFFIXES = ("", "Core", "Reconciler", "Spec", "Status")

# Names the generated modules import or define beside the resources' classes (templates and
# render/package.py, providers/<cloud>/provider.py); render/verify.py checks the output against
# shadowing anyway, this says which input caused it. A core also imports its owner parent's SPEC as
# ``<PARENT_MODULE>_SPEC``: all capitals with a suffix, so no class or constant here can be it.
MODULE_NAMES = frozenset(
    {
        "Any",
        "AwsCore",
        "AwsReconciler",
        "AwsTask",
        "CallSpec",
        "CannotChangeFieldError",
        "Changes",
        "ClassVar",
        "Context",
        "CreateSpec",
        "DOCUMENT",
        "FieldSpec",
        "GROUP",
        "GcpCore",
        "GcpReconciler",
        "Mutability",
        "GcpTask",
        "Mapping",
        "ParentSpec",
        "Path",
        "RECONCILERS",
        "ReadSpec",
        "ReadinessSpec",
        "Reconciler",
        "VersionSpec",
        "ChangeBatchSpec",
        "ResourceSpec",
        "RetryPolicy",
        "SPEC",
        "TYPE_CHECKING",
        "TagsSpec",
        "Task",
        "TypedDict",
        "VERSION",
        "dataclass",
        "datetime",
        "kopf",
        "operator",
        "register",
        "_MODULES",
        "importlib",
    }
)


def custom_resource_key(key: str, resource: Resource, in_spec: bool, in_status: bool) -> str:
    """``key``, or the kind's lowerCamel name + ``Key`` when the spec or status the field is in
    has a key of that name of its own (a HostedZone's ``Id`` is ``hostedZoneId`` beside the
    status's ``id``; an FpgaImage's ``Name`` is ``fpgaImageName`` beside the spec's ``name``)."""
    ident = resource.identity
    has_id = len(ident.primary) == 1 and ident.primary[0] != "name"  # as ResourceView.has_id
    own = {
        *(SPEC_KEYS if in_spec else ()),
        *(STATUS_KEYS if in_status else ()),
        *(("id",) if in_status and has_id else ()),
    }
    if key not in own:
        return key
    kind = resource.name
    return kind[:1].lower() + kind[1:] + key[:1].upper() + key[1:]


def task_attr(candidate: PythonIdentifier, is_name: bool) -> PythonIdentifier:
    """``candidate``, or ``candidate_`` when the runtime's tasks already use it. A field called
    ``name`` that is the resource's own name is the task's ``name`` (by design, not a clash)."""
    if candidate == "name" and is_name:
        return candidate
    return PythonIdentifier(f"{candidate}_") if candidate in RUNTIME_TASK_NAMES else candidate


def collision(
    service: Service, where: str, file: str | None, what: str, first: str, second: str
) -> TasklayerError:
    file = file or (
        service.source_files[0] if service.source_files else f"{service.provider}/{service.name}"
    )
    return TasklayerError(
        f"{first!r} and {second!r} both become {what}; one would shadow the other in generated "
        "code",
        file=file,
        pointer=where,
        notes=[
            "rename one of them with an overlay (schemas/overlays/...), or exclude the resource"
        ],
    )


def _first_twice(pairs: Iterable[tuple[str, str]]) -> tuple[str, str, str] | None:
    """The first (name, earlier input, later input) where two inputs give one name."""
    seen: dict[str, str] = {}
    for name, source in pairs:
        if name in seen:
            return name, seen[name], source
        seen[name] = source
    return None


def check_fields(
    service: Service,
    resource: Resource,
    fields: Sequence[NamedField],
    scopes: Sequence[str],
    has_id: bool,
) -> None:
    """Task attributes, CRD spec keys and CRD status keys are each unique within a resource."""
    where = f"resources/{resource.name}/fields"
    # every field's attribute names it in the spec; those on the task are also dataclass fields
    # beside the scopes (a read-only ``region`` field is the task's region scope, not a clash)
    task_fixed = [(str(s), f"the task's {s} scope") for s in scopes]
    for pairs in (
        [(str(f.attr), f.field.name) for f in fields],
        [*task_fixed, *((str(f.attr), f.field.name) for f in fields if f.on_task)],
    ):
        clash = _first_twice(pairs)
        if clash:
            name, first, second = clash
            raise collision(
                service, f"{where}/{second}", None, f"the task attribute {name!r}", first, second
            )
    spec_fixed = [(k, f"the spec's own {k!r}") for k in (*SPEC_KEYS, *scopes)]
    spec = [(f.crd_key, f.field.name) for f in fields if f.on_task and not f.is_tags]
    spec += [(f.ref_key, f"{f.field.name} by name") for f in fields if f.ref_key]
    status_fixed = [
        (k, f"the status's own {k!r}") for k in (*STATUS_KEYS, *(("id",) if has_id else ()))
    ]
    # a primary id whose key is ``id`` (a HostedZone's ``Id``) is the status's own id, not a clash
    own_id = resource.identity.primary[0] if has_id else None
    status = [
        (f.crd_key, f.field.name)
        for f in fields
        if (f.field.in_read or f.field.read_operation)
        and not f.is_tags
        and not (f.field.name == own_id and f.crd_key == "id")
    ]
    for kind, pairs in (("spec", [*spec_fixed, *spec]), ("status", [*status_fixed, *status])):
        clash = _first_twice(pairs)
        if clash:
            name, first, second = clash
            raise collision(
                service,
                f"{where}/{second}",
                None,
                f"the custom resource {kind} key {name!r}",
                first,
                second,
            )


def check_resources(service: Service, names: Sequence[str]) -> None:
    """Class and module names of the rendered resources are unique in the service, and clear
    of the service folder's own modules."""
    classes: list[tuple[str, str]] = [
        (n, f"the generated modules' own {n!r}") for n in sorted(MODULE_NAMES)
    ]
    for name in names:
        base = class_name(name)
        classes += [(f"{base}{suffix}", name) for suffix in CLASS_SUFFIXES]
    clash = _first_twice(classes)
    if clash:
        generated, first, second = clash
        raise collision(
            service, *_origin(service, second), f"the class {generated!r}", first, second
        )
    modules = [(m, f"the service's own {m!r} module") for m in sorted(SERVICE_MODULES)]
    clash = _first_twice([*modules, *((str(module_name(n)), n) for n in names)])
    if clash:
        generated, first, second = clash
        raise collision(
            service, *_origin(service, second), f"the module {generated!r}", first, second
        )


def _origin(service: Service, resource: str) -> tuple[str, str | None]:
    """Where a resource's name came from: the overlay key that renamed it, else the schema."""
    renamed = service.resource(resource).provenance.get("name", "")
    if renamed.startswith("overlay:"):
        file, _, key = renamed.removeprefix("overlay:").partition("#")
        return key, file
    return f"resources/{resource}", None


def check_service_name(service: Service) -> None:
    """The service becomes a package folder (``tasklayer_tasks/aws/<name>``): it must be a safe
    identifier as it is, since converting it would change the import path users write."""
    try:
        PythonIdentifier(service.name)
    except ValueError:
        file = service.source_files[0] if service.source_files else None
        raise TasklayerError(
            f"service name {service.name!r} cannot be a Python package name",
            file=file,
            pointer="/name",
        ) from None

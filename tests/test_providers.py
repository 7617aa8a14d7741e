"""A provider is one object: the stages outside ``codegen/providers/`` never ask which cloud
they are in, each provider object has every member the stages call, and the neutral model
carries none of a provider's call-shape facts (issue 9, item 1)."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from codegen import model
from codegen.annotate.rules import Rule
from codegen.errors import TasklayerError
from codegen.model import CallShape, Field, Operation, Resource, Service
from codegen.providers import NAMES, info
from codegen.providers.base import Provider
from codegen.providers.registry import PROVIDERS, provider

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
# the stages that must be the same code for every cloud
NEUTRAL_PYTHON = [
    *sorted((ROOT / "codegen" / "render").glob("*.py")),
    ROOT / "codegen" / "pipeline.py",
    *sorted((ROOT / "codegen" / "commands").glob("*.py")),
]
NEUTRAL_TEMPLATES = sorted(TEMPLATES.glob("*.jinja"))
BRANCH_WORDS = ("has_document", "REFERENCE_SUFFIXES")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings: prose may name a cloud."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def python_branches(source: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """Where Python code decides by a cloud's name: a provider's name as a string constant
    (``provider == "gcp"``, ``{"aws": ...}``, ``("aws", "gcp")``), or a flag standing for one."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in names and id(node) not in docstrings:
            found.append(f"line {node.lineno}: the string {node.value!r}")
        elif isinstance(node, ast.Attribute) and node.attr in BRANCH_WORDS:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in BRANCH_WORDS:
            found.append(f"line {node.lineno}: {node.id}")
    return found


_TAG = re.compile(r"\{([%{])(.*?)[%}]\}", re.S)


def template_branches(source: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """Where a template decides by cloud: any tag with a flag or a provider's quoted name, a
    control tag (``{% if %}``) testing ``provider``. Printing the provider's name is not a
    branch (``{{ service.provider | docstring }}``)."""
    anywhere = re.compile(r"\b({})\b|['\"]({})['\"]".format("|".join(BRANCH_WORDS), "|".join(map(re.escape, names))))
    found = []
    for m in _TAG.finditer(source):
        kind, body = m.group(1), m.group(2)
        if anywhere.search(body) or (kind == "%" and re.search(r"\bprovider\b", body)):
            found.append(m.group(0))
    return found


def test_the_detectors_find_the_branches_they_are_for() -> None:
    assert python_branches('if service.provider == "gcp":\n    pass\n')
    assert python_branches("x = {'aws': 1}\n")
    assert python_branches("if cloud.has_document:\n    pass\n")
    assert not python_branches('"""On AWS a Name tag; on GCP a name."""\nx = 1\n')
    assert template_branches("{% if cloud.has_document %}x{% endif %}")
    assert template_branches("{% if service.provider == 'aws' %}x{% endif %}")
    assert template_branches("{{ 'Path' if service.provider == 'gcp' else '' }}")
    assert not template_branches("{{ cloud.task_base }} {% for line in cloud.task_class_lines(view) %}")
    assert not template_branches("from {{ service.provider | docstring }}/{{ service.name | docstring }}")


@pytest.mark.parametrize("path", NEUTRAL_PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_cloud_branching_in_the_neutral_stages(path: Path) -> None:
    assert python_branches(path.read_text(encoding="utf-8")) == [], f"{path}: ask the provider object instead"


@pytest.mark.parametrize("path", NEUTRAL_TEMPLATES, ids=lambda p: p.name)
def test_no_cloud_branching_in_the_shared_templates(path: Path) -> None:
    assert template_branches(path.read_text(encoding="utf-8")) == [], f"{path}: ask the provider object instead"


def test_every_provider_folder_is_registered_and_the_registry_refuses_others() -> None:
    folders = sorted(p.parent.name for p in (ROOT / "codegen" / "providers").glob("*/provider.py"))
    assert list(NAMES) == folders == sorted(PROVIDERS)
    assert set(NAMES) >= {"aws", "gcp"}
    with pytest.raises(TasklayerError, match="no provider 'openstack'"):
        provider("openstack")


_MEMBERS = [name for name in dir(Provider) if not name.startswith("_")] + list(Provider.__annotations__)


@pytest.mark.parametrize("name", NAMES)
def test_each_provider_has_what_the_stages_call(name: str) -> None:
    cloud = PROVIDERS[name]
    missing = [m for m in _MEMBERS if not hasattr(cloud, m)]
    assert missing == []
    assert cloud.info is info(name) and cloud.info.name == name
    if cloud.info.renders:  # an annotate-only provider has no adapter, core or runtime yet
        assert (TEMPLATES / cloud.core_template).is_file()
        assert all((TEMPLATES / "runtime" / f"{module}.py").is_file() for module in cloud.runtime_core)
    else:
        assert (cloud.core_template, cloud.runtime_core) == ("", ())
    assert issubclass(cloud.call_shape, CallShape) and cloud.call_shape.kind == name
    assert cloud.rules and all(isinstance(r, Rule) and r.id.startswith(f"{name}.") for r in cloud.rules)


def _field_names(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


# every dataclass of the neutral model (codegen/model.py), the variants' base aside
NEUTRAL_CLASSES = tuple(
    c for c in vars(model).values()
    if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == model.__name__ and c is not CallShape
)


def _variants(cloud: Provider) -> list[type[CallShape]]:
    return [cloud.call_shape, cloud.field_shape, cloud.tag_shape]


def test_the_neutral_model_carries_no_provider_call_facts() -> None:
    neutral = set().union(*(_field_names(c) for c in NEUTRAL_CLASSES))
    assert {Operation, Field, Resource, Service, model.TagsModel} <= set(NEUTRAL_CLASSES)
    for name, cloud in PROVIDERS.items():
        assert _field_names(cloud.call_shape) and _field_names(cloud.field_shape)
        for shape in _variants(cloud):
            own = _field_names(shape)
            assert not own & neutral, f"{name}: {sorted(own & neutral)} are on the neutral model too"
            assert shape is CallShape or shape.kind == name  # the tag tells the variants apart


# Fields of the neutral model that only one provider's rules (and overlays) set in the pinned
# corpus, kept neutral on purpose: each is a fact about an API's shape that any cloud may have,
# read by the runtime's shared modules or by both providers' cores, and the other provider's
# pinned schemas have simply not shown one yet. A field set by one provider and not listed
# here belongs in that provider's variant (codegen/providers/<name>/shapes.py).
NEUTRAL_FACTS: dict[tuple[str, str], str] = {
    ("Resource", "readiness"): "ready when a state field has a value (a waiter's acceptor); the shared "
    "reconciler waits on it; GCP waits on operations, and a GCP status field would be recorded the same way",
    ("Resource", "versioning"): "a resource changed by making a new version and moving its default to it "
    "(EC2 launch templates); runtime/aws/versions.py is cloud-neutral over the calls it names",
    ("Resource", "change_batch"): "a resource written as one change in its parent's batch: Route 53's "
    "ChangeResourceRecordSets and Cloud DNS's changes.create have the same form",
    ("Field", "read_name"): "reads carry it under another member's name: both cores (aws_core, gcp_core) "
    "read FieldSpec.read_member",
    ("Field", "read_operation"): "not in the main read but in another call's answer (an attribute read, "
    "a tags read): a shape of any API",
    ("Field", "after"): "an update order between fields: the executor and both cores honour it",
    ("Field", "sensitive_paths"): "secret parts inside a field, redacted by the shared runtime/contract/redact.py",
    ("Field", "update_kind"): "how an update changes a field when it does not send the new value (add and "
    "remove calls, per-item calls, JSON patches, nested members): kinds of API, listed in model.UPDATE_KINDS",
    ("Field", "remove_operation"): "the remove call of an add/remove or per-item update (update_kind)",
    ("Field", "remove_name"): "the member of that remove call carrying the items, when renamed (update_kind)",
    ("Field", "emptied_before_delete"): "a membership list (update_kind) whose kind's delete is refused while "
    "it holds items (an IAM instance profile's role): a shape of any API's memberships",
    ("Field", "update_paths"): "where nested, flattened, keyed and patched updates put the field (update_kind)",
    ("Field", "create_path"): "the create sets it only inside another member's structure; read by the "
    "shared safety rules, not by a provider's runtime",
    ("Operation", "token_read"): "the read member that returns a create's idempotency token (Route 53's "
    "CallerReference): the shared create-once machinery (runtime/engine/token_adopt.py) finds our resource by it; "
    "any cloud whose reads echo the token can set it",
    ("Operation", "token_taken"): "the create's errors that say its token already committed "
    "(HostedZoneAlreadyExists): read by the shared create-once machinery with token_read",
    ("Operation", "returned_once"): "a create's answer members no read returns again (a private key): the "
    "shared reconciler and task keep them",
    ("Operation", "alternatives"): "a create made by another operation when an input only it takes is set "
    "(ImportKeyPair beside CreateKeyPair): a shape of any API",
    ("Identity", "owner_parent"): "a kind that carries no tags or labels is owned through its parent; the "
    "shared reconciler and task read it; every rendered GCP kind has labels or a name",
    ("Identity", "owner_record"): "a free-text member an owner may record itself in (the Kubernetes "
    "cloud-provider's JSON in a GCP description); the shared engine and listing read it as "
    "ResourceSpec.owner_record: any API with a description-like member can set it",
    ("TagsModel", "read_operation"): "tags the resource's read does not return are read by another call, "
    "as Field.read_operation",
}


def _default(f: dataclasses.Field) -> object:  # type: ignore[type-arg]
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING  # required: always "set", by every provider that makes one


def _setters(service: Service, provider_name: str, seen: dict[tuple[str, str], set[str]]) -> None:
    """Record, for each neutral model field, that ``provider_name`` gave it a value other than
    its default somewhere in ``service``."""
    stack: list[object] = [service]
    while stack:
        obj = stack.pop()
        if isinstance(obj, (tuple, list)):
            stack.extend(obj)
            continue
        if type(obj) not in NEUTRAL_CLASSES:
            continue
        for f in dataclasses.fields(obj):  # type: ignore[arg-type]
            key, value = (type(obj).__name__, f.name), getattr(obj, f.name)
            if isinstance(value, CallShape):  # the variant itself: its facts are the provider's
                continue
            if value != _default(f):
                seen.setdefault(key, set()).add(provider_name)
            if key not in NEUTRAL_FACTS:  # an allow-listed structure's own fields go with it
                stack.append(value)


@pytest.fixture(scope="module")
def setters() -> dict[tuple[str, str], set[str]]:
    from codegen.pipeline import annotated

    schemas = ROOT / "schemas"
    seen: dict[tuple[str, str], set[str]] = {}
    for name, cloud in PROVIDERS.items():
        pinned = cloud.pinned_services(schemas)
        assert pinned, f"no pinned {name} services to learn from"
        for service in pinned:
            _setters(annotated(schemas, name, service), name, seen)
    return seen


def test_no_neutral_model_field_is_one_providers_fact(setters: dict[tuple[str, str], set[str]]) -> None:
    """Every field of the neutral model that exactly one provider sets in the pinned corpus
    (after its overlays) is either in that provider's variant or listed, with a reason, as a
    neutral fact; a listed fact no longer set by only one provider leaves the list."""
    single = {key: sorted(who) for key, who in setters.items() if len(who) == 1}
    unlisted = {f"{c}.{n}": who for (c, n), who in single.items() if (c, n) not in NEUTRAL_FACTS}
    assert unlisted == {}, "move these into the provider's variant (or list them, with a reason)"
    stale = sorted(f"{c}.{n}" for c, n in NEUTRAL_FACTS if (c, n) not in single)
    assert stale == [], "set by every provider now (or by none, or no longer a field): drop from NEUTRAL_FACTS"
    assert all(len(why.split()) >= 8 for why in NEUTRAL_FACTS.values())


def test_the_corpus_walk_sees_a_single_providers_fact() -> None:
    """The detector above is not vacuous: a GCP-only value on a field and on a tags model is
    recorded as GCP's alone."""
    seen: dict[tuple[str, str], set[str]] = {}
    tags = model.TagsModel("labels", read_operation="compute.x.getLabels")
    f = Field("size", model.FieldType("integer"), create_path="a.b")
    resource = Resource("Disk", "Disk", None, model.Operations(), model.Identity(), (f,), tags=tags)
    _setters(Service("gcp", "compute", "v1", (resource,)), "gcp", seen)
    assert seen[("Field", "create_path")] == seen[("TagsModel", "read_operation")] == {"gcp"}
    assert ("Field", "update_kind") not in seen  # left at its default


def test_an_operation_refuses_another_providers_facts() -> None:
    aws, gcp = PROVIDERS["aws"].call_shape, PROVIDERS["gcp"].call_shape
    op = Operation("compute.networks.patch", "update").with_call(gcp, mask_param="updateMask")
    assert op.call_as(gcp) == gcp(mask_param="updateMask")
    with pytest.raises(TypeError, match="carries gcp call facts, not aws"):
        op.call_as(aws)
    plain = Operation("DeleteVpc", "delete")
    assert plain.with_call(aws) is plain  # no facts, no change: provenance is not touched

"""A provider is one object: the stages outside ``codegen/providers/`` never ask which cloud
they are in, each provider object has every member the stages call, and the neutral model
carries none of a provider's call-shape facts (issue 9, item 1)."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from codegen.annotate.rules import Rule
from codegen.model import CallShape, Field, Operation, Resource, Service
from codegen.providers import NAMES, info
from codegen.providers.base import Provider
from codegen.providers.registry import PROVIDERS, provider
from codegen.errors import TasklayerError

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
    anywhere = re.compile(r"\b(%s)\b|['\"](%s)['\"]" % ("|".join(BRANCH_WORDS), "|".join(map(re.escape, names))))
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
    with pytest.raises(TasklayerError, match="no provider 'azure'"):
        provider("azure")


_MEMBERS = [name for name in dir(Provider) if not name.startswith("_")] + list(Provider.__annotations__)


@pytest.mark.parametrize("name", NAMES)
def test_each_provider_has_what_the_stages_call(name: str) -> None:
    cloud = PROVIDERS[name]
    missing = [m for m in _MEMBERS if not hasattr(cloud, m)]
    assert missing == []
    assert cloud.info is info(name) and cloud.info.name == name
    assert (TEMPLATES / cloud.core_template).is_file()
    assert all((TEMPLATES / "runtime" / f"{module}.py").is_file() for module in cloud.runtime_core)
    assert issubclass(cloud.call_shape, CallShape) and cloud.call_shape.kind == name
    assert cloud.rules and all(isinstance(r, Rule) and r.id.startswith(f"{name}.") for r in cloud.rules)


def _field_names(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_the_neutral_model_carries_no_provider_call_facts() -> None:
    neutral = set().union(*(_field_names(c) for c in (Operation, Field, Resource, Service)))
    for name, cloud in PROVIDERS.items():
        own = _field_names(cloud.call_shape)
        assert own and not own & neutral, f"{name}: {sorted(own & neutral)} are on the neutral model too"
    shapes = [PROVIDERS[n].call_shape for n in NAMES]
    assert len({s.kind for s in shapes}) == len(shapes)  # the tag tells the variants apart


def test_an_operation_refuses_another_providers_facts() -> None:
    aws, gcp = PROVIDERS["aws"].call_shape, PROVIDERS["gcp"].call_shape
    op = Operation("compute.networks.patch", "update").with_call(gcp, mask_param="updateMask")
    assert op.call_as(gcp) == gcp(mask_param="updateMask")
    with pytest.raises(TypeError, match="carries gcp call facts, not aws"):
        op.call_as(aws)
    plain = Operation("DeleteVpc", "delete")
    assert plain.with_call(aws) is plain  # no facts, no change: provenance is not touched

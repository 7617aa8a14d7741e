"""The docs site builds strictly from the checkout (issue 22 item 1): a broken link, a missing
page, an unresolved API reference or any other warning fails; the generated reference pages
(item 3) and the API reference are in it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from codegen.naming import class_name
from tests.docs.site import ROOT, Site, site  # noqa: F401  (the session's fixture)


def test_the_site_builds_without_a_warning(site: Site) -> None:
    warnings = [line for line in site.output.splitlines() if re.search(r"\b(WARNING|ERROR)\b", line)]
    assert not warnings, "\n".join(warnings)
    assert (site.folder / "index.html").is_file()
    print(f"mkdocs build --strict: {site.seconds:.1f}s, {len(list(site.folder.rglob('*.html')))} pages")


def test_docs_reference_is_the_generated_pages() -> None:
    link = ROOT / "docs" / "reference"
    assert link.is_symlink() and link.resolve() == (ROOT / "generated" / "docs" / "reference").resolve()


def test_every_generated_resource_has_its_page_in_the_site(site: Site) -> None:
    metadata = json.loads((ROOT / "generated" / "tasklayer-generate-metadata.json").read_text())
    # a page is named by the resource's class (the task's): VPCAssociationAuthorization's is VpcAssociationAuthorization
    wanted = {f"{s['provider']}/{s['service']}/{class_name(name)}" for s in metadata["services"] for name in s["rendered"]}
    pages = {p.parent.relative_to(site.folder / "reference").as_posix()
             for p in (site.folder / "reference").glob("*/*/*/index.html")}
    assert pages == wanted
    for service in {w.rsplit("/", 1)[0] for w in wanted}:
        assert (site.folder / "reference" / service / "index.html").is_file()


def test_the_api_reference_renders_the_public_runtime(site: Site) -> None:
    pages = {name: (site.folder / "api" / name / "index.html").read_text() for name in ("kops", "capi", "contract", "errors")}
    for page, names in {
        "kops": ["Task", "Executor", "DryRunTarget", "Report"],
        "capi": ["Reconciler", "Result", "Condition"],
        "contract": ["Adapter", "ResourceSpec", "FieldSpec", "Context"],
        "errors": ["CloudError", "OutcomeUnknownError", "NotOwnedError"],
    }.items():
        for name in names:
            assert 'id="tasklayer_tasks.runtime.' in pages[page] and re.search(rf'id="[\w.]*\.{name}"', pages[page]), (page, name)


def test_a_reference_page_says_why_a_field_is_create_only(site: Site) -> None:
    page = (ROOT / "generated" / "docs" / "reference" / "aws" / "ec2" / "Vpc.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith("| `CidrBlock` |"))
    assert "create-only" in row and "`rule:aws.create-input-without-update`" in row and "`cidrBlock`" in row
    assert "| `ModifyVpcAttribute` | `EnableDnsHostnames`" in page  # its update routing


def test_the_layer_diagram_is_drawn_from_the_runtime_imports(site: Site) -> None:
    from docs_hooks.diagrams import RUNTIME, layer_imports

    edges = layer_imports(RUNTIME)
    assert ("engine", "contract") in edges and ("kops", "engine") in edges and ("wiring", "aws") in edges
    below = {"contract": set(), "engine": {"contract"}, "aws": {"contract"}, "gcp": {"contract"}, "azure": {"contract"},
             "kops": {"engine", "contract"}, "capi": {"engine", "contract"},
             "cloudprovider": {"kops", "wiring", "engine", "contract"}}
    assert all(b in below[a] for a, b in edges if a != "wiring"), edges  # imports only point down
    page = (site.folder / "architecture" / "index.html").read_text()
    drawn = re.search(r'<div class="diagram diagram-runtime-layers">\s*<svg.*?</svg>', page, re.S)
    assert drawn is not None and all(f"{layer}/" in drawn.group() for layer in below)


def test_a_graphviz_block_becomes_inline_svg_and_a_dot_block_stays_code() -> None:
    from types import SimpleNamespace

    from docs_hooks.diagrams import on_page_markdown

    page = SimpleNamespace(file=SimpleNamespace(src_uri="guide/x.md"))
    text = "a\n\n```graphviz\ndigraph { vpc -> subnet }\n```\n\n```dot\ndigraph { b }\n```\n"
    out = on_page_markdown(text, page=page)
    assert '<div class="diagram diagram-graphviz">\n<svg' in out and ">subnet<" in out
    assert "```dot\ndigraph { b }\n```" in out


def test_the_sidebar_spells_each_section_as_people_do(site: Site) -> None:
    # MkDocs would title a folder's section after the folder, capitalised ("Aws", "Ec2", "Api");
    # docs_hooks/nav_titles.py gives every folder under docs/ its title, and a folder it does not
    # name warns, which fails the strict build
    from docs_hooks.nav_titles import TITLES

    docs = ROOT / "docs"  # docs/reference is a link into generated/, so walked with followlinks
    folders = {Path(d).relative_to(docs).as_posix() for d, _, _ in os.walk(docs, followlinks=True) if Path(d) != docs}
    folders -= {f for f in folders if f.split("/")[0] == "assets"}
    assert folders <= set(TITLES), sorted(folders - set(TITLES))
    html = (site.folder / "index.html").read_text()
    titles = set(re.findall(r'<span class="md-ellipsis">\s*([^<]+?)\s*<', html))
    assert {"AWS", "EC2", "GCP", "API reference", "Resource reference", "Reuse guide"} <= titles
    assert not titles & {"Aws", "Ec2", "Gcp", "Api", "Guide", "Reference"}, titles


DOCUMENTED = ("kops", "capi", "contract", "errors")  # every API page: each public member documented


@pytest.mark.parametrize("page", DOCUMENTED)
def test_every_public_member_on_an_api_page_has_a_docstring(page: str) -> None:
    # mkdocstrings hides what has no docstring (show_if_no_docstring: false): a dataclass field
    # without one would be missing from docs/api/<page>.md, so each has an attribute docstring
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "generated")])
    package = loader.load("tasklayer_tasks")
    missing = []
    for ident in re.findall(r"^::: (\S+)", (ROOT / "docs" / "api" / f"{page}.md").read_text(), re.M):
        obj = package[ident.removeprefix("tasklayer_tasks.")]
        if not obj.docstring:
            missing.append(ident)
        missing += [f"{ident}.{name}" for name, member in obj.members.items()
                    if not name.startswith("_") and not member.is_alias and not member.docstring]
    assert not missing, missing

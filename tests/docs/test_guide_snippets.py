"""Every ```python block of the docs (docs/*.md, docs/guide/*.md) runs as pasted: in its own
interpreter, from an empty folder, with the environment the pages tell a reader to set —
AWS against one moto_server over HTTP (``AWS_ENDPOINT_URL``, fake credentials), GCP against
the fake the block itself builds (``tasklayer_tasks.testing.FakeGcp``). The machinery is the
README's (testbed/snippets.py; tests/test_readme.py runs the README's blocks with it).

A block that is not meant to run says so on the line above its fence, with a reason::

    <!-- no-run: a fragment of the page above, not a program -->
    ```python

Those are kept few (``NO_RUN_AT_MOST``): a page's example is a program a reader can run. Each
consumer page of the guide has at least one block that runs. Links between pages are relative
and name a page that exists, as ``mkdocs build --strict`` wants them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from testbed.moto import MotoServer
from testbed.snippets import Snippet, run_snippet, snippet_env, snippets

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted([*DOCS.glob("*.md"), *DOCS.glob("guide/*.md")])
ALL = [s for page in PAGES for s in snippets(page, ROOT)]
RUN = [s for s in ALL if s.no_run is None]
GUIDE = ("kops.md", "capi.md", "cloud-provider.md", "operator.md", "adding-a-cloud.md")
NO_RUN_AT_MOST = 2


@pytest.fixture(scope="module")
def moto_url() -> Iterator[str]:
    with MotoServer() as server:  # its own process on loopback; every block uses its own names
        yield server.url


def test_every_guide_page_is_there_with_a_block_that_runs() -> None:
    for name in GUIDE:
        page = f"docs/guide/{name}"
        assert (ROOT / page).is_file(), page
        assert any(s.page == page for s in RUN), f"{page} has no python block that runs"


def test_blocks_not_run_are_few_and_say_why() -> None:
    skipped = [s for s in ALL if s.no_run is not None]
    assert len(skipped) <= NO_RUN_AT_MOST, [s.id for s in skipped]
    assert all(s.no_run for s in skipped), "a no-run marker without its reason"


@pytest.mark.parametrize("snippet", RUN, ids=lambda s: s.id)
def test_docs_snippet_runs_as_pasted(snippet: Snippet, moto_url: str, tmp_path: Path) -> None:
    done = run_snippet(snippet.code, tmp_path, snippet_env(ROOT, AWS_ENDPOINT_URL=moto_url))
    assert done.returncode == 0, f"{snippet.id} failed:\n{snippet.code}\n{done.stderr[-3000:]}"


_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCED = re.compile(r"^```.*?^```", re.S | re.M)


def _anchors(page: Path) -> set[str]:
    """The ids Python-Markdown's toc gives the page's headings (its default slugify)."""
    text = _FENCED.sub("", page.read_text())
    titles = re.findall(r"^#{1,6} +(.+?) *$", text, re.M)
    slugs = (re.sub(r"[^\w\s-]", "", t.replace("`", "")).strip().lower() for t in titles)
    return {re.sub(r"[-\s]+", "-", slug) for slug in slugs}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_links_are_relative_and_reach_a_page(page: Path) -> None:
    """Strict mode refuses a link to a file outside docs/ or to no page; repository files are
    named in code spans instead. An anchor names a heading of the page it points to."""
    for target in _LINK.findall(_FENCED.sub("", page.read_text())):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        # normpath, not resolve: docs/reference is a link into generated/ that mkdocs follows
        path = Path(os.path.normpath(page.parent / file)) if file else page
        assert path.is_relative_to(DOCS) and path.is_file(), f"{page.name}: {target}"
        assert not anchor or anchor in _anchors(path), f"{page.name}: {target}: no such heading"

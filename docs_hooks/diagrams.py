"""MkDocs hook (mkdocs.yml ``hooks:``): diagrams drawn when the site is built, not by hand.

- a ```` ```graphviz ```` block (DOT source) is rendered by ``dot -Tsvg`` into the page as
  inline SVG (a task graph an executor wrote, say); no JavaScript, nothing fetched (a
  ```` ```dot ```` block stays a code listing of DOT);
- a ```` ```runtime-layers ```` block becomes the graph of which layer folder of the runtime
  (``templates/runtime/<layer>/``) imports which, read from the sources' imports at build time:
  the picture cannot drift from the code.

Graphviz is required: without ``dot`` the build fails, naming the package to install.
"""

from __future__ import annotations

import ast
import html
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "templates" / "runtime"
FENCE = re.compile(
    r"^```(?P<kind>graphviz|runtime-layers)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S
)
# what the reader is told each layer is for (docs/architecture.md, "Layers")
ROLES = {
    "contract": "what all layers share",
    "engine": "the one lifecycle",
    "kops": "face",
    "capi": "face",
    "cloudprovider": "face over kOps tasks",
    "aws": "adapter",
    "gcp": "adapter",
    "wiring": "binds a face to an adapter",
}


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    return FENCE.sub(lambda m: _diagram(m["kind"], m["body"], page.file.src_uri), markdown)


def _diagram(kind: str, body: str, where: str) -> str:
    source = layer_graph(RUNTIME) if kind == "runtime-layers" else body
    return f'\n<div class="diagram diagram-{kind}">\n{svg(source, where)}\n</div>\n'


def svg(dot_source: str, where: str = "") -> str:
    """``dot_source`` drawn as inline SVG (the document's ``<svg>`` element alone)."""
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError(f"{where}: a diagram needs Graphviz's dot (apt-get install graphviz)")
    done = subprocess.run(
        [dot, "-Tsvg"], input=dot_source, capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        raise RuntimeError(f"{where}: dot refused the diagram: {done.stderr.strip()}")
    start = done.stdout.index("<svg")
    return done.stdout[start:].strip()


def layer_imports(runtime: Path) -> set[tuple[str, str]]:
    """(importing layer, imported layer) for every import between the runtime's layer folders."""
    edges = set()
    for path in sorted(runtime.glob("*/*.py")):
        layer = path.parent.name
        for imported in _relative_imports(path):
            target = imported.split(".")[0]
            if target != layer and (runtime / target).is_dir():
                edges.add((layer, target))
    return edges


def _relative_imports(path: Path) -> Iterable[str]:
    """The runtime-relative module of each ``from ..x import`` (two dots: another layer)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            yield node.module


def layer_graph(runtime: Path) -> str:
    edges = sorted(layer_imports(runtime))
    layers = sorted({name for edge in edges for name in edge})
    lines = [
        "digraph runtime {",
        "  rankdir=TB;",  # importers above what they import: the contract at the bottom
        '  node [shape=box, style="rounded,filled", fillcolor="#eef2ff", fontname="sans-serif"];',
        '  edge [color="#555555"];',
    ]
    lines += [f'  "{n}" [label="{html.escape(n)}/\\n{ROLES.get(n, "")}"];' for n in layers]
    lines += [f'  "{a}" -> "{b}";' for a, b in edges]
    return "\n".join([*lines, "}"]) + "\n"

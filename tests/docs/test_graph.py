"""The task graph (runtime/kops/graph.py) of the example kOps cluster: one node per task and
one edge per declared dependency, derived here from each task's own ``dependencies()`` rather
than from the module's walk; the DOT renders with Graphviz's ``dot`` (which CI installs: a
missing ``dot`` fails, it does not skip); the text is the same whatever order the tasks come
in; ``python -m examples.kops_cluster --graph`` prints it without touching a cloud."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from examples.kops_cluster import kops_cluster
from tasklayer_tasks.aws.ec2 import Subnet, Vpc
from tasklayer_tasks.runtime.kops.graph import dependency_graph, edges, to_dot, to_mermaid

ROOT = Path(__file__).resolve().parents[2]


def _expected() -> tuple[set[str], set[tuple[str, str]]]:
    """Nodes and edges from the tasks' declared dependencies, by breadth-first search."""
    seen, queue, pairs = [], list(kops_cluster()), set()
    while queue:
        task = queue.pop(0)
        if any(task is s for s in seen):
            continue
        seen.append(task)
        for dep in task.dependencies():
            pairs.add((dep.key, task.key))
            queue.append(dep)
    return {t.key for t in seen}, pairs


def _dot() -> str:
    exe = shutil.which("dot")
    assert exe, "Graphviz's dot is not installed (apt-get install graphviz; .ci/run does)"
    return exe


def test_the_example_cluster_graph_has_every_task_and_declared_dependency() -> None:
    nodes, pairs = _expected()
    tasks = kops_cluster()
    assert {t.key for t in dependency_graph(tasks)} == nodes
    assert set(edges(tasks)) == pairs
    assert len(edges(tasks)) == len(pairs)  # each edge drawn once
    # a few a kOps engineer knows by heart, references nested in dicts and lists included
    for dep, task in [
        ("Vpc/demo.example.com", "Subnet/us-east-1a.demo.example.com"),
        ("ElasticIp/us-east-1a.demo.example.com", "NatGateway/us-east-1a.demo.example.com"),
        ("Subnet/utility-us-east-1a.demo.example.com", "NatGateway/us-east-1a.demo.example.com"),
        ("NatGateway/us-east-1b.demo.example.com", "Route/private-us-east-1b-0.0.0.0/0"),
        ("HostedZone/demo.example.com.", "ResourceRecordSet/api.demo.example.com."),
        ("LaunchTemplate/nodes.demo.example.com", "AutoScalingGroup/nodes.demo.example.com"),
        ("Subnet/us-east-1c.demo.example.com", "AutoScalingGroup/nodes.demo.example.com"),
    ]:
        assert (dep, task) in pairs
    assert not any(t.startswith("Volume/") for _, t in pairs)  # the etcd volumes stand alone


def test_dot_and_mermaid_name_every_node_and_edge() -> None:
    nodes, pairs = _expected()
    tasks = kops_cluster()
    for text, node, edge in (
        (to_dot(tasks), r'  (t\d+) \[label="(.*)"\];', r"  (t\d+) -> (t\d+);"),
        (to_mermaid(tasks), r'  (t\d+)\["(.*)"\]', r"  (t\d+) --> (t\d+)"),
    ):
        labels = dict(re.findall(node, text))
        assert set(labels.values()) == nodes and len(labels) == len(nodes)
        drawn = {(labels[a], labels[b]) for a, b in re.findall(edge, text)}
        assert drawn == pairs


def test_the_graph_text_does_not_depend_on_the_order_tasks_are_given() -> None:
    tasks = kops_cluster()
    shuffled = list(tasks)
    random.Random(7).shuffle(shuffled)
    assert to_dot(shuffled) == to_dot(tasks) and to_mermaid(shuffled) == to_mermaid(tasks)
    assert to_mermaid(kops_cluster()) == to_mermaid(tasks)  # new objects, same text


def test_graphviz_renders_the_example_cluster_and_awkward_names() -> None:
    vpc = Vpc(name='a "quoted" \\ name', cidr_block="10.0.0.0/16")
    awkward = [Subnet(name="<b>&</b>", vpc=vpc, cidr_block="10.0.1.0/24")]
    for tasks in (kops_cluster(), awkward):
        done = subprocess.run([_dot(), "-Tsvg"], input=to_dot(tasks), capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count('class="node"') == len(dependency_graph(tasks))
        assert done.stdout.count('class="edge"') == len(edges(tasks))
    assert '#quot;' in to_mermaid(awkward) and "#lt;b#gt;#amp;" in to_mermaid(awkward)


@pytest.mark.parametrize("form", ["dot", "mermaid"])
def test_the_example_prints_its_graph_without_a_cloud(form: str) -> None:
    # an endpoint nothing listens on: any call would fail the run
    env = {**os.environ, "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
    done = subprocess.run([sys.executable, "-m", "examples.kops_cluster", "--graph", form], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == (to_dot if form == "dot" else to_mermaid)(kops_cluster())


def test_the_guide_shows_the_example_cluster_graph_as_the_module_writes_it() -> None:
    page = (ROOT / "docs" / "guide" / "kops.md").read_text()
    shown = re.search(r"<!-- graph: python -m examples.kops_cluster --graph mermaid -->\n```mermaid\n(.*?)^```", page,
                      re.S | re.M)
    assert shown, "docs/guide/kops.md lost its graph block"
    assert shown[1] == to_mermaid(kops_cluster()), (
        "stale: python -m examples.kops_cluster --graph mermaid, and paste its output into docs/guide/kops.md")

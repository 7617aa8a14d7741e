"""The task graph of a plan, as the executor runs it, written as Graphviz DOT or a Mermaid
flowchart: a picture produced from the code, never drawn by hand.

:func:`dependency_graph` is the one place the graph is derived (the executor schedules from it):
every task given and every task they refer to, each with the tasks it depends on
(:meth:`.task.Task.dependencies`: its reference fields). A node is named by the task's key, as
kOps names its tasks (``Vpc/demo.example.com``, ``Subnet/us-east-1a.demo.example.com``); an edge
``A -> B`` says A is done before B begins. Nodes and edges are sorted by those names, so the
same tasks always give the same text, whatever order they were listed in::

    from tasklayer_tasks.runtime.kops.graph import to_dot, to_mermaid

    print(to_dot(tasks))       # dot -Tsvg renders it
    print(to_mermaid(tasks))   # a ```mermaid block in Markdown renders it

Nothing here reads or writes the cloud.
"""

from __future__ import annotations

from collections.abc import Sequence

from .task import Task

__all__ = ["dependency_graph", "edges", "to_dot", "to_mermaid"]


def dependency_graph(tasks: Sequence[Task]) -> dict[Task, list[Task]]:
    """Every task and what it depends on, including dependencies not listed explicitly."""
    graph: dict[Task, list[Task]] = {}
    todo = list(tasks)
    while todo:
        task = todo.pop()
        if task in graph:
            continue
        graph[task] = task.dependencies()
        todo.extend(graph[task])
    return graph


def _ordered(tasks: Sequence[Task]) -> tuple[list[Task], list[tuple[Task, Task]]]:
    """The graph's tasks sorted by key (ties kept in the order given), and its edges, each
    (dependency, dependent), sorted by those tasks' places in that order."""
    graph = dependency_graph(tasks)
    given = {task: i for i, task in enumerate(graph)}
    nodes = sorted(graph, key=lambda t: (t.key, given[t]))
    place = {task: i for i, task in enumerate(nodes)}
    pairs = {(dep, task) for task, deps in graph.items() for dep in deps}
    return nodes, sorted(pairs, key=lambda p: (place[p[0]], place[p[1]]))


def edges(tasks: Sequence[Task]) -> list[tuple[str, str]]:
    """The graph's edges by task key, (dependency, dependent), in the order drawn."""
    return [(dep.key, task.key) for dep, task in _ordered(tasks)[1]]


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(tasks: Sequence[Task], name: str = "tasks") -> str:
    """The graph in Graphviz DOT (``digraph``), one node per task labelled with its key."""
    nodes, pairs = _ordered(tasks)
    ids = {task: f"t{i}" for i, task in enumerate(nodes)}
    lines = [f"digraph {_dot_string(name)} {{", "  rankdir=LR;", "  node [shape=box];"]
    lines += [f"  {ids[t]} [label={_dot_string(t.key)}];" for t in nodes]
    lines += [f"  {ids[a]} -> {ids[b]};" for a, b in pairs]
    return "\n".join([*lines, "}"]) + "\n"


def _mermaid_label(text: str) -> str:
    """A label Mermaid shows as written: quoted, its own quotes and markup as entity codes."""
    for char, code in (("&", "#amp;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;")):
        text = text.replace(char, code)
    return f'"{text}"'


def to_mermaid(tasks: Sequence[Task], direction: str = "LR") -> str:
    """The graph as a Mermaid ``flowchart``, one node per task labelled with its key."""
    nodes, pairs = _ordered(tasks)
    ids = {task: f"t{i}" for i, task in enumerate(nodes)}
    lines = [f"flowchart {direction}"]
    lines += [f"  {ids[t]}[{_mermaid_label(t.key)}]" for t in nodes]
    lines += [f"  {ids[a]} --> {ids[b]}" for a, b in pairs]
    return "\n".join(lines) + "\n"

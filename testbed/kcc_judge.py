"""Our GCP fake judged by Config Connector's recorded answers (issue 23 item 2).

Each pinned log is sent, request by request and in order, to a fresh
:class:`tasklayer_tasks.testing.FakeGcp` built from the shipped discovery documents; for every
exchange whose method is on a collection we generate (or an operation poll), the fake's answer
is compared with the recorded one member by member: the status, then every member (``a.b[0].c``)
of either body, modulo the random-value rules of :data:`RANDOM` (listed here and nowhere else).

    python -m testbed.kcc_judge            # the figures and every difference
    python -m testbed.kcc_judge --baseline # rewrite tests/gcp_recorded/known_differences.json

These rules make a stateful fake answer a log recorded against a live project:

- **operations**: the log names every operation ``${operationID}``; a poll is sent for the
  operation the fake answered last;
- **fingerprints**: a request's ``...Fingerprint`` is the one the fake answered last for the
  resource (the log's is Google's, which the fake cannot know);
- **preconditions**: a resource the log reads (200) but never creates existed before the
  recording began (a fixture's dependency, a public image); it is put in the fake's store as
  recorded and that exchange is not compared;
- **one placeholder, two resources**: the log names every resource of a kind in a fixture by
  one placeholder (``${subnetworkID}`` for a subnet and its proxy-only subnet); where it reads
  a name the fake holds as 404 and creates it next, that is a second resource, held by the fake
  as ``<name>-2`` until the log deletes it, and answers are compared under the log's name;
- **what the recorder rewrites** (:func:`as_recorded`): Config Connector writes a log through
  its normaliser (``tests/e2e/normalize.go``, ``mockgcp/mockcompute/normalize.go`` at the
  pinned commit), and the fake's answer is put through the same rules before it is compared:
  a compute resource's ``sizeGb`` (and five other members) dropped, a ``type`` reference made
  relative, the project's number written as the log's placeholder;
- **exchanges the mock wrote**: some pinned logs were last written by running Config
  Connector against its own mock (mockgcp), not GCP; an answer bearing the mock's signature
  is sent to the fake but not compared (:func:`mock_written`): an operation with neither
  ``operationType`` nor ``targetLink`` (mockgcp's ``newLRO``: a global operation, ``DONE`` at
  progress 0, for a zonal or regional resource; every other of the 79 pinned operation answers
  has both), and a 404 in Go's ``%q`` form (``disk "projects/..." not found``, the mock's
  ``status.Errorf``; every other pinned compute 404 is "The resource '...' was not found");
- **a read 404 the log explains**: a recorded 404 for a resource the log created and did not
  delete is not compared — when the log reads it found next, the read raced the create (``not
  yet visible``); when the log never touches it again, a client the log does not record deleted
  it, and the fake drops it too (``deleted outside the log``).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from tasklayer_tasks.testing import FakeGcp
from tasklayer_tasks.testing.gcp_fake import PROJECT_NUMBER

from .kcc_log import Exchange, concrete_exchange, parse, placeholder_value
from .kcc_pin import OUT as RECORDINGS

ROOT = Path(__file__).resolve().parents[1]
GCP = ROOT / "generated" / "tasklayer_tasks" / "gcp"
PINNED = ROOT / "schemas" / "gcp"
BASELINE = ROOT / "tests" / "gcp_recorded" / "known_differences.json"
APIS = ("compute", "iam", "storage")

# Members whose value is random (differs between two runs against Google itself): only their
# presence is compared. (last key of the member, why)
RANDOM: dict[str, str] = {
    "id": "a server-made number (the log has zeros)",
    "creationTimestamp": "time",
    "insertTime": "time",
    "startTime": "time",
    "endTime": "time",
    "timeCreated": "time",
    "updated": "time",
    "softDeletePolicy.effectiveTime": "time",
    "etag": "a server-made hash",
    "fingerprint": "a server-made hash (every ...Fingerprint too)",
    "uniqueId": "a server-made number",
    "oauth2ClientId": "a server-made number",
    "projectNumber": "the project's number",
    "generation": "a server-made number (the log has 12345678901234)",
    "user": "who called (the log has user@example.com)",
    "address": "an IP the server allocates",
    "IPAddress": "an IP the server allocates",
    "internalIpv6Range": "an IPv6 range the server allocates",
    "gatewayAddress": "the log writes 10.0.0.1 for every subnetwork, whatever its range",
    "selfLinkWithId": "a link by the server-made number",
}
# an operation's own name, link and target id are made per call
OPERATION_RANDOM = ("name", "selfLink", "targetId")


def is_random(member: str, body: Any) -> bool:
    last = re.sub(r"\[\d+\]", "", member).rsplit(".", 1)[-1]
    bare = re.sub(r"\[\d+\]", "", member)
    if last in RANDOM or bare in RANDOM or last.endswith(("Fingerprint", "fingerprint")):
        return True
    return _is_operation(body) and member in OPERATION_RANDOM


# members Config Connector's recorder drops from every compute resource it logs
# (mockgcp/mockcompute/normalize.go, cleanComputeResource)
RECORDER_DROPS = (
    "enableConfidentialCompute",
    "locked",
    "multiWriter",
    "satisfiesPzi",
    "sizeGb",
    "recommendedSize",
)
_COMPUTE_LINK = re.compile(r"^https://(?:compute|www)\.googleapis\.com/compute/(?:v1|beta)/")
_GO_QUOTED_NOT_FOUND = re.compile(r'^\w+ "[^"]+" not found$')


def as_recorded(value: Any, project_number: str, key: str = "") -> Any:
    """An answer as Config Connector's recorder would have written it: the compute resource
    members it drops (:data:`RECORDER_DROPS`) left out, a ``type`` / ``sourceDisk`` reference
    as a relative name (tests/e2e/normalize.go, normalizeComputeSelfLink), and the project's
    number as the log's ``${projectNumber}`` (``project-owners-<number>`` too)."""
    if isinstance(value, str):
        if key in ("type", "sourceDisk"):
            value = _COMPUTE_LINK.sub("", value)
        return value.replace(project_number, placeholder_value("projectNumber"))
    if isinstance(value, list):
        return [as_recorded(v, project_number, key) for v in value]
    if isinstance(value, dict):
        compute = str(value.get("kind", "")).startswith("compute#")
        return {
            k: as_recorded(v, project_number, k)
            for k, v in value.items()
            if not (compute and k in RECORDER_DROPS)
        }
    return value


def mock_written(recorded: Exchange) -> str | None:
    """Why a recorded answer is Config Connector's mock's, not GCP's; None when it is GCP's."""
    body = recorded.response_body
    if _is_operation(body) and "operationType" not in body and "targetLink" not in body:
        return "written by Config Connector's mock: mockgcp's newLRO operation"
    message = (body or {}).get("error", {}).get("message") if isinstance(body, dict) else None
    if isinstance(message, str) and _GO_QUOTED_NOT_FOUND.match(message):
        return "written by Config Connector's mock: mockgcp's not-found text"
    return None


def _is_operation(body: Any) -> bool:
    return isinstance(body, dict) and (
        body.get("kind") == "compute#operation" or "operationType" in body
    )


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf member of a JSON value by its path (``a.b[0].c``); an empty dict or list is
    a leaf."""
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}.{key}" if prefix else key))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}[{i}]"))
        return out
    return {prefix: value}


@dataclass(frozen=True)
class Difference:
    fixture: str
    index: int  # the exchange's place in the log
    method_id: str
    member: str  # "(status)" for the HTTP status
    recorded: Any
    fake: Any

    @property
    def what(self) -> str:
        if self.fake is _ABSENT:
            return "missing"
        if self.recorded is _ABSENT:
            return "extra"
        return "value"

    @property
    def key(self) -> str:
        return f"{self.fixture}#{self.index} {self.method_id} {self.member} ({self.what})"

    def __str__(self) -> str:
        def show(v: Any) -> str:
            return "(absent)" if v is _ABSENT else json.dumps(v)

        return f"{self.key}: recorded {show(self.recorded)}, fake {show(self.fake)}"


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT: Any = _Absent()


@dataclass
class Judgement:
    exchanges: int = 0  # compared
    members: int = 0  # compared (the union of both answers' members, and the status)
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many
    differences: list[Difference] = field(default_factory=list)

    def add(self, other: Judgement) -> None:
        self.exchanges += other.exchanges
        self.members += other.members
        for why, n in other.skipped.items():
            self.skipped[why] = self.skipped.get(why, 0) + n
        self.differences += other.differences


@functools.cache
def _document(api: str) -> str:
    return (PINNED / api / "v1" / "discovery.json").read_text()


def documents() -> list[dict[str, Any]]:
    """The full pinned discovery documents (``schemas/gcp/<api>/v1/``, in the schema manifest),
    not the trimmed ones shipped beside the tasks: those keep only what the generated code
    calls, and Config Connector calls more (a health check's ``update``, an instance group's
    ``addInstances``); what the fake answers for a method is the same over either."""
    return [json.loads(_document(api)) for api in APIS]


def generated_collections() -> set[str]:
    """``compute.networks``, ``iam.projects.serviceAccounts``...: the collections whose
    resources a generated task creates."""
    found = set()
    for core in GCP.glob("*/core/*.py"):
        for method in re.findall(r"^\s+create: (\S+)", core.read_text(), re.M):
            found.add(method.rsplit(".", 1)[0])
    return found


def judged(method_id: str, collections: set[str]) -> bool:
    collection = method_id.rsplit(".", 1)[0]
    return collection in collections or collection.endswith(("Operations", "operations"))


def compare(fixture: str, index: int, method_id: str, recorded: Exchange, status: int, body: Any):
    diffs, members = [], 1
    if status != recorded.status:
        diffs.append(Difference(fixture, index, method_id, "(status)", recorded.status, status))
    want = flatten(recorded.response_body) if recorded.response_body is not None else {}
    got = flatten(body) if body is not None else {}
    for member in dict.fromkeys([*want, *got]):
        members += 1
        a, b = want.get(member, _ABSENT), got.get(member, _ABSENT)
        if a is not _ABSENT and b is not _ABSENT and is_random(member, recorded.response_body):
            continue
        if a != b:
            diffs.append(Difference(fixture, index, method_id, member, a, b))
    return diffs, members


def _send(
    fake: FakeGcp, exchange: Exchange, last_operation: str | None, names: _Names
) -> tuple[str, int, Any]:
    parts = urlsplit(exchange.url)
    path = names.path(parts.path)
    if last_operation and re.search(r"/operations/operationid$", path):
        path = path[: -len("operationid")] + last_operation
    url = f"{parts.scheme}://{parts.netloc}{path}"
    if exchange.query:
        url += "?" + urlencode(exchange.query)
    sent = _with_fingerprints(fake, exchange, f"{parts.scheme}://{parts.netloc}{path}")
    if exchange.method == "POST" and isinstance(sent, dict) and "name" in sent:
        sent = {**sent, "name": names.name(f"{parts.path}/{sent['name']}", str(sent["name"]))}
    body = json.dumps(sent) if sent is not None else None
    response, content = fake.request(url, exchange.method, body=body)
    answer = names.recorded(json.loads(content)) if content else None
    method_id = fake.log[-1].method_id if fake.log and fake.log[-1].path == path else ""
    return method_id, response.status, answer


def _with_fingerprints(fake: FakeGcp, exchange: Exchange, url: str) -> Any:
    body = exchange.request_body
    if not isinstance(body, dict) or exchange.method == "GET":
        return body
    item = url if exchange.method in ("PATCH", "PUT") else url.rsplit("/", 1)[0]
    stored = fake.store.get(item, {})
    return {
        k: stored.get(k, v) if k.endswith(("Fingerprint", "fingerprint")) else v
        for k, v in body.items()
    }


class _Names:
    """The name the fake holds each recorded resource under. Config Connector's log names every
    resource of a kind in a fixture by one placeholder (``${subnetworkID}``): where it reads a
    name 404 that the fake holds and then creates it, it is a second resource, which the fake
    holds as ``<name>-2`` until the log deletes it (reads and deletes address the newest, as the
    log's teardown does); answers are compared under the recorded name."""

    def __init__(self) -> None:
        self.stacks: dict[str, list[str]] = {}  # recorded item path -> the names held, newest last
        self.given: dict[str, str] = {}  # every name made here -> the log's (kept after a delete)

    def open(self, item: str) -> None:
        stack = self.stacks.setdefault(item, [item.rsplit("/", 1)[1]])
        stack.append(f"{stack[0]}-{len(stack) + 1}")
        self.given[stack[-1]] = stack[0]

    def path(self, path: str) -> str:
        for item, stack in self.stacks.items():
            if path == item or path.startswith(item + "/"):
                return item.rsplit("/", 1)[0] + "/" + stack[-1] + path[len(item) :]
        return path

    def name(self, item: str, name: str) -> str:
        stack = self.stacks.get(urlsplit(item).path if "://" in item else item)
        return stack[-1] if stack else name

    def deleted(self, path: str) -> None:
        stack = self.stacks.get(path)
        if stack and len(stack) > 1:
            stack.pop()

    def recorded(self, value: Any) -> Any:
        """An answer with every held name as the log names it."""
        if isinstance(value, str):
            for held, name in self.given.items():
                value = (
                    name if value == held else re.sub(f"/{held}(?![A-Za-z0-9-])", f"/{name}", value)
                )
            return value
        if isinstance(value, list):
            return [self.recorded(v) for v in value]
        if isinstance(value, dict):
            return {k: self.recorded(v) for k, v in value.items()}
        return value


def _later(exchanges: list[Exchange], at: int, path: str) -> Exchange | None:
    """The log's next write to the resource at ``path`` (a create of its name, a change, a
    delete), or its next read that found it; None when the log touches it no more."""
    collection, name = path.rsplit("/", 1)
    for e in exchanges[at + 1 :]:
        creates = (
            e.method == "POST"
            and e.path == collection
            and isinstance(e.request_body, dict)
            and e.request_body.get("name") == name
        )
        if creates or (e.path == path and (e.method != "GET" or e.status == 200)):
            return e
    return None


def _missing_but_held(
    fake: FakeGcp, exchanges: list[Exchange], at: int, names: _Names
) -> str | None:
    """Why a recorded read answered 404 for a resource the fake holds, when the log shows why:
    ``"second"`` (the log creates the name next: another resource under one placeholder),
    ``"not yet visible"`` (the log's next exchange on it reads it found: a read racing its
    create), ``"deleted outside the log"`` (the log never touches it again: a client the log
    does not record deleted it). None when the fake does not hold it."""
    recorded = exchanges[at]
    parts = urlsplit(recorded.url)
    held = f"{parts.scheme}://{parts.netloc}{names.path(parts.path)}"
    if recorded.method != "GET" or recorded.status != 404 or held not in fake.store:
        return None
    after = _later(exchanges, at, recorded.path)
    if after is None or after.method == "DELETE":
        return "deleted outside the log"
    return "second" if after.method == "POST" else "not yet visible"


class _Run:
    """One log sent to one fresh fake, exchange by exchange."""

    def __init__(self, fixture: str, collections: set[str]) -> None:
        self.fixture, self.collections = fixture, collections
        self.fake = FakeGcp(*documents(), operation_polls=1)
        self.out = Judgement()
        self.created: set[str] = set()
        self.last_operation: str | None = None
        self.names = _Names()

    def skip(self, why: str) -> None:
        self.out.skipped[why] = self.out.skipped.get(why, 0) + 1

    def exchange(self, exchanges: list[Exchange], at: int) -> None:
        recorded = exchanges[at]
        why = _missing_but_held(self.fake, exchanges, at, self.names)
        if why == "second":
            self.names.open(recorded.path)
        elif why is not None:
            self.skip(f"recorded 404 of a resource the log created: {why}")
            if why == "deleted outside the log":
                parts = urlsplit(recorded.url)
                del self.fake.store[f"{parts.scheme}://{parts.netloc}{self.names.path(parts.path)}"]
            return
        before = len(self.fake.log)
        method_id, status, answer = _send(self.fake, recorded, self.last_operation, self.names)
        if recorded.method == "DELETE" and status < 300:
            self.names.deleted(recorded.path)
        item = f"{urlsplit(recorded.url).netloc}{recorded.path}"
        if recorded.method == "POST" and isinstance(recorded.request_body, dict):
            self.created.add(f"{item}/{recorded.request_body.get('name', '')}")
        if len(self.fake.log) == before or not method_id:
            self.skip("no method of the documents serves it")
            return
        if _is_operation(answer) and answer.get("name"):
            self.last_operation = str(answer["name"])
        if (
            recorded.method == "GET"
            and recorded.status == 200
            and status == 404
            and item not in self.created
            and isinstance(recorded.response_body, dict)
        ):
            self.fake.store[f"https://{item}"] = recorded.response_body
            self.skip("precondition: read, never created")
            return
        if not judged(method_id, self.collections):
            self.skip("not a collection we generate")
            return
        mock = mock_written(recorded)
        if mock is not None:
            self.skip(mock)
            return
        answer = as_recorded(answer, PROJECT_NUMBER)
        diffs, members = compare(self.fixture, recorded.index, method_id, recorded, status, answer)
        self.out.exchanges += 1
        self.out.members += members
        self.out.differences += diffs


def judge(fixture: str, collections: set[str] | None = None) -> Judgement:
    run = _Run(fixture, collections if collections is not None else generated_collections())
    text = (RECORDINGS / f"{fixture}.http.log").read_text()
    exchanges = [concrete_exchange(e) for e in parse(text)]
    for at in range(len(exchanges)):
        run.exchange(exchanges, at)
    return run.out


def judge_all() -> Judgement:
    manifest = json.loads((RECORDINGS / "manifest.json").read_text())
    collections = generated_collections()
    total = Judgement()
    for log in manifest["logs"]:
        total.add(judge(log["fixture"], collections))
    return total


_OPERATION_MEMBERS = (
    "status",
    "progress",
    "endTime",
    "targetLink",
    "targetId",
    "operationType",
    "user",
    "zone",
    "region",
)
_LINK = re.compile(r"^(https://[a-z.]+googleapis\.com/|projects/)")


def cause(d: Difference) -> str:
    """What kind of difference it is, by its shape (the table ``--quiet`` ends with)."""
    verb = d.method_id.rsplit(".", 1)[-1]
    if d.member == "(status)":
        return "HTTP status"
    if d.member.startswith("error"):
        return "error body"
    polled = d.method_id.endswith(("Operations.get", "operations.get"))
    if polled or (verb not in ("get", "list") and d.member in _OPERATION_MEMBERS):
        return "operation (type, target, status)"
    if all(isinstance(v, str) and _LINK.match(v) for v in (d.recorded, d.fake)):
        return "reference form (relative / host / version / collection)"
    if d.what == "missing":
        return "a member GCP answers that the fake does not"
    if d.what == "extra":
        return "a member the fake answers that GCP leaves out"
    return "a value that differs"


def causes(differences: list[Difference]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in differences:
        out[cause(d)] = out.get(cause(d), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def baseline(judgement: Judgement) -> dict[str, Any]:
    return {
        "about": (
            "Differences between the GCP fake's answers and Config Connector's recorded ones "
            "(testbed/kcc_judge.py), not yet fixed: tests/gcp_recorded/test_fake_answers.py "
            "fails on a difference not listed here, and on one listed that no longer occurs. "
            "Rewrite with: python -m testbed.kcc_judge --baseline"
        ),
        "differences": {
            d.key: {"recorded": _plain(d.recorded), "fake": _plain(d.fake)}
            for d in judgement.differences
        },
    }


def _plain(value: Any) -> Any:
    return "(absent)" if value is _ABSENT else value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", action="store_true", help="rewrite " + BASELINE.name)
    parser.add_argument("--quiet", action="store_true", help="the figures only")
    args = parser.parse_args(argv)
    result = judge_all()
    if not args.quiet:
        for difference in result.differences:
            print(difference)
    print(
        f"exchanges compared: {result.exchanges}, members compared: {result.members}, "
        f"differences: {len(result.differences)}, skipped: {result.skipped}"
    )
    by_member: dict[str, int] = {}
    for d in result.differences:
        by_member[f"{d.member} ({d.what})"] = by_member.get(f"{d.member} ({d.what})", 0) + 1
    for member, n in sorted(by_member.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {n:4} {member}")
    print("by cause:")
    for why, n in causes(result.differences).items():
        print(f"  {n:4} {why}")
    if args.baseline:
        BASELINE.write_text(json.dumps(baseline(result), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

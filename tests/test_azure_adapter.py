"""The Azure adapter's behaviour under ARM's faults and child collections (issue 26 item 3).

ARM is answered here by a script: each request gets the next answer written for its method and
path, built from what ASO's recording holds (the subnet and network bodies ARM returned), under
azure-core's own RequestsTransport and pipeline, so retries, Retry-After and polling are
azure-core's. What is judged is what we send: a PUT of a parent carries the children it read
(the ASO #1944 class), an etag precondition, a 412's re-read, a 429's wait."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import requests

from tasklayer_tasks.runtime.azure.arm import Arm
from tasklayer_tasks.runtime.azure.body import children_dropped, create_body
from tasklayer_tasks.runtime.azure.core import AzureCore
from tasklayer_tasks.runtime.contract.calls import CallCount
from tasklayer_tasks.runtime.contract.errors import (
    ConflictError,
    InUseError,
    PreconditionFailedError,
)
from testbed import aso_replay
from testbed.azure_kinds import NETWORK_SECURITY_GROUP, SUBNET, VIRTUAL_NETWORK

SUB = "00000000-0000-0000-0000-000000000000"
CASSETTE = aso_replay.load("Test_Networking_VirtualNetwork_CRUD.yaml")
VNET_ID = CASSETTE[3].response_body["id"]
SUBNET_BODY = CASSETTE[6].response_body  # a subnet as ARM returned it


def _network(etag: str = 'W/"1"') -> dict[str, Any]:
    """The recorded network as ARM returns it once the recorded subnet is in it."""
    body = copy.deepcopy(CASSETTE[3].response_body)
    body["properties"]["subnets"] = [copy.deepcopy(SUBNET_BODY)]
    body["etag"] = etag
    body["tags"] = {"team": "theirs"}
    return body


class Script(requests.adapters.BaseAdapter):
    """Answers each (method, path) with the next answer scripted for it; records requests."""

    def __init__(self, answers: dict[tuple[str, str], list[tuple[int, dict[str, str], Any]]]):
        super().__init__()
        # ARM's paths are case-insensitive (the template says resourcegroups, ids resourceGroups)
        self.answers = {(m, p.lower()): list(v) for (m, p), v in answers.items()}
        self.sent: list[tuple[str, str, dict[str, str], Any]] = []
        self.slept: list[float] = []

    def send(self, request: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        path = requests.utils.urlparse(request.url).path.lower()
        body = json.loads(request.body) if request.body else None
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith("if-")}
        self.sent.append((request.method, path, headers, body))
        status, extra, answer = self.answers[(request.method, path)].pop(0)
        exchange = aso_replay.Exchange(
            0,
            request.method,
            request.url,
            path,
            None,
            None,
            status,
            {k.lower(): v for k, v in extra.items()},
            json.dumps(answer) if answer is not None else "",
        )
        return aso_replay._response(request, exchange, status)

    def close(self) -> None:
        pass

    def puts(self) -> list[Any]:
        return [body for method, _, _, body in self.sent if method == "PUT"]


def _core(spec: Any, script: Script, calls: CallCount | None = None) -> AzureCore:
    replay = aso_replay.Replay([])
    transport = aso_replay.transport(replay)
    transport.session.mount("https://", script)
    script.slept = replay.slept
    return AzureCore(spec, Arm(SUB, transport=transport, calls=calls))


def test_a_network_update_sends_back_the_subnets_another_task_made() -> None:
    """The ASO #1944 class: a tag change on a network whose subnet is another task's is a PUT
    that carries that subnet exactly as read, under the etag it was read with."""
    script = Script(
        {
            ("GET", VNET_ID): [(200, {}, _network())],
            ("PUT", VNET_ID): [(200, {}, _network('W/"2"'))],
        }
    )
    core = _core(VIRTUAL_NETWORK, script)
    core.update({"id": VNET_ID}, {"tags": {"KubernetesCluster": "c"}})
    (put,) = script.puts()
    assert put["properties"]["subnets"] == [SUBNET_BODY]
    assert put["tags"] == {"team": "theirs", "KubernetesCluster": "c"}  # others' tags kept
    assert script.sent[-1][2] == {"If-Match": 'W/"1"'}
    assert "etag" not in put and "provisioningState" not in put["properties"]


def test_the_same_update_built_from_desired_alone_would_have_dropped_them() -> None:
    """Why a read-modify-PUT: the body a PUT of the declared network alone sends (ASO's) has no
    subnets, and the guard every PUT passes names what it would delete."""
    declared = {
        "name": "n",
        "location": "westus2",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/8"]},
    }
    naive = create_body(VIRTUAL_NETWORK, declared)
    assert "subnets" not in naive["properties"]
    assert children_dropped(VIRTUAL_NETWORK, _network(), naive, {}) == ["subnets"]
    assert children_dropped(VIRTUAL_NETWORK, _network(), _network(), {}) == []


def test_a_security_group_update_keeps_its_rules() -> None:
    nsg_id = VNET_ID.replace("virtualNetworks/asotest-vn-bxrysz", "networkSecurityGroups/nsg")
    rule = {
        "name": "ssh",
        "id": nsg_id + "/securityRules/ssh",
        "etag": 'W/"r"',
        "properties": {
            "protocol": "Tcp",
            "access": "Allow",
            "direction": "Inbound",
            "priority": 100,
            "destinationPortRange": "22",
            "provisioningState": "Succeeded",
        },
    }
    nsg = {
        "id": nsg_id,
        "name": "nsg",
        "location": "westus2",
        "etag": 'W/"1"',
        "tags": {},
        "properties": {"securityRules": [rule], "provisioningState": "Succeeded"},
    }
    script = Script({("GET", nsg_id): [(200, {}, nsg)], ("PUT", nsg_id): [(200, {}, nsg)]})
    _core(NETWORK_SECURITY_GROUP, script).update({"id": nsg_id}, {"tags": {"a": "b"}})
    (put,) = script.puts()
    assert put["properties"]["securityRules"] == [rule]


def test_a_412_reads_again_and_sends_the_change_over_the_new_etag() -> None:
    script = Script(
        {
            ("GET", VNET_ID): [(200, {}, _network('W/"1"')), (200, {}, _network('W/"2"'))],
            ("PUT", VNET_ID): [
                (412, {}, {"error": {"code": "PreconditionFailed", "message": "etag"}}),
                (200, {}, _network('W/"3"')),
            ],
        }
    )
    _core(VIRTUAL_NETWORK, script).update({"id": VNET_ID}, {"tags": {"k": "v"}})
    sent = [(m, h) for m, _, h, _ in script.sent]
    assert sent == [
        ("GET", {}),
        ("PUT", {"If-Match": 'W/"1"'}),
        ("GET", {}),
        ("PUT", {"If-Match": 'W/"2"'}),
    ]


def test_a_412_that_keeps_coming_is_reported_not_resent_for_ever() -> None:
    refused = (412, {}, {"error": {"code": "PreconditionFailed", "message": "etag"}})
    script = Script(
        {("GET", VNET_ID): [(200, {}, _network())] * 3, ("PUT", VNET_ID): [refused] * 3}
    )
    with pytest.raises(PreconditionFailedError):
        _core(VIRTUAL_NETWORK, script).update({"id": VNET_ID}, {"tags": {"k": "v"}})
    assert len(script.puts()) == 3


def test_throttling_is_retried_after_the_wait_arm_names() -> None:
    calls = CallCount()
    throttled = (429, {"Retry-After": "7"}, {"error": {"code": "TooManyRequests", "message": "x"}})
    script = Script({("GET", VNET_ID): [throttled, throttled, (200, {}, _network())]})
    core = _core(VIRTUAL_NETWORK, script, calls)
    (found,) = core.find({"id": VNET_ID}, "asotest-vn-bxrysz")
    assert found["subnets"] == [SUBNET_BODY]
    assert script.slept == [7.0, 7.0] and calls.now() == (3, 0)


def test_delete_of_what_is_gone_is_success_and_in_use_is_reported() -> None:
    subnet_id = SUBNET_BODY["id"]
    gone = (404, {}, {"error": {"code": "NotFound", "message": "gone"}})
    used = (400, {}, {"error": {"code": "InUseSubnetCannotBeDeleted", "message": "nic"}})
    script = Script({("DELETE", subnet_id): [gone, used]})
    core = _core(SUBNET, script)
    core.delete({"id": subnet_id})
    with pytest.raises(InUseError):
        core.delete({"id": subnet_id})


def test_a_create_over_one_already_there_is_refused_not_overwritten() -> None:
    subnet_id = SUBNET_BODY["id"]
    exists = (412, {}, {"error": {"code": "PreconditionFailed", "message": "exists"}})
    script = Script({("PUT", subnet_id): [exists]})
    desired = {
        "name": "asotest-subnet-emhesg",
        "resourceGroupName": "asotest-rg-wniggk",
        "virtualNetworkName": "asotest-vn-bxrysz",
        "addressPrefix": "10.0.0.0/24",
    }
    with pytest.raises(ConflictError):
        _core(SUBNET, script).create(desired)
    ((method, path, headers, body),) = script.sent
    assert headers == {"If-None-Match": "*"}
    assert body == {"name": "asotest-subnet-emhesg", "properties": {"addressPrefix": "10.0.0.0/24"}}


class LosesFirstAnswer(Script):
    """The first PUT reaches ARM (it is made) and its answer is lost on the way back."""

    def send(self, request: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        response = super().send(request, **kwargs)
        if request.method == "PUT" and len(self.puts()) == 1:
            raise requests.exceptions.ReadTimeout("answer lost")
        return response


def test_a_lost_create_answer_makes_one_resource_and_the_next_pass_adopts_it() -> None:
    """azure-core resends the PUT after the lost answer; its If-None-Match finds ours already
    there (412): nothing is overwritten, the pass reports a conflict, and the next pass finds
    the group by its name carrying our tags: 1 resource, 2 PUTs, no third."""
    from tasklayer_tasks.runtime import CloudTarget, Context, Executor
    from tasklayer_tasks.runtime.contract.retry import RetryPolicy
    from testbed.azure_kinds import ResourceGroup

    rg_path = f"/subscriptions/{SUB}/resourcegroups/g"
    made = {
        "id": rg_path,
        "name": "g",
        "location": "westus2",
        "tags": {"KubernetesCluster": "c", "kubernetes.io_cluster_c": "owned"},
        "properties": {"provisioningState": "Succeeded"},
    }
    gone = (404, {}, {"error": {"code": "ResourceGroupNotFound", "message": "g"}})
    exists = (412, {}, {"error": {"code": "PreconditionFailed", "message": "exists"}})
    script = LosesFirstAnswer(
        {
            ("GET", rg_path): [gone, (200, {}, made)],
            ("PUT", rg_path): [(201, {}, made), exists],
        }
    )
    replay = aso_replay.Replay([])
    transport = aso_replay.transport(replay)
    transport.session.mount("https://", script)
    context = Context(
        cluster="c",
        subscription=SUB,
        azure_transport=transport,
        retry=RetryPolicy(sleep=lambda _: None),
    )
    executor = Executor(CloudTarget(context), sleep=lambda _: None)
    with pytest.raises(ConflictError):
        executor.run([ResourceGroup(name="g", location="westus2")])
    report = executor.run([ResourceGroup(name="g", location="westus2")])
    assert [t.action.value for t in report.tasks] == ["unchanged"]
    assert len(script.puts()) == 2 and report.writes == 0


def test_a_nat_gateway_from_the_pinned_document_puts_its_fields_where_arm_holds_them() -> None:
    """The NAT gateway's spec is built from the pinned natGateway.json's annotation: a create
    sends its SKU at the top and its idle timeout under ``properties``; an update keeps what the
    read holds but drops the members the document marks read-only (its ``subnets``: set from
    the subnet's side, not a child collection), and carries the etag."""
    from testbed.azure_kinds import NAT_GATEWAY

    nat_id = VNET_ID.replace("virtualNetworks/asotest-vn-bxrysz", "natGateways/nat")
    read = {
        "id": nat_id,
        "name": "nat",
        "location": "westus2",
        "etag": 'W/"1"',
        "tags": {},
        "sku": {"name": "Standard"},
        "properties": {
            "idleTimeoutInMinutes": 4,
            "provisioningState": "Succeeded",
            "subnets": [{"id": SUBNET_BODY["id"]}],
            "resourceGuid": "g",
        },
    }
    script = Script(
        {
            ("PUT", nat_id): [(201, {}, read), (200, {}, read)],
            ("GET", nat_id): [(200, {}, read)],
        }
    )
    core = _core(NAT_GATEWAY, script)
    assert NAT_GATEWAY.api_version == "2024-07-01" and NAT_GATEWAY.child_collections == ()
    core.create(
        {
            "name": "nat",
            "resourceGroupName": "asotest-rg-wniggk",
            "location": "westus2",
            "sku": {"name": "Standard"},
            "idleTimeoutInMinutes": 4,
            "tags": {"a": "b"},
        }
    )
    core.update({"id": nat_id}, {"idleTimeoutInMinutes": 10})
    create, update = script.puts()
    assert create == {
        "name": "nat",
        "location": "westus2",
        "sku": {"name": "Standard"},
        "tags": {"a": "b"},
        "properties": {"idleTimeoutInMinutes": 4},
    }
    assert update["properties"] == {"idleTimeoutInMinutes": 10}
    assert script.sent[-1][2] == {"If-Match": 'W/"1"'}

"""The same stack over HTTP, against ``moto_server`` started as its own process on loopback:
what a user's CI would run, with real request serialization and no in-process patching."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tasklayer_tasks.runtime import CloudTarget, Executor
from testbed.moto import MotoServer
from testbed.stack import counted_context, network_stack


@pytest.fixture(scope="module")
def moto_server() -> Iterator[str]:
    with MotoServer() as server:  # its own process, on loopback
        yield server.url


def test_apply_reapply_delete_over_http(moto_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_SESSION_TOKEN": "testing"}.items():
        monkeypatch.setenv(key, value)
    context, calls = counted_context(endpoint_url=moto_server)
    Executor(CloudTarget(context), sleep=lambda _: None).run(network_stack("http").tasks())
    created = calls.writes()
    assert created["CreateVpc"] == 1 and created["CreateNatGateway"] == 1
    assert all(count == 1 for count in created.values())
    calls.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).run(network_stack("http").tasks())
    assert calls.writes() == {}
    calls.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).delete(network_stack("http").tasks())
    assert calls.writes()["DeleteVpc"] == 1
    calls.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).delete(network_stack("http").tasks())
    assert calls.writes() == {}  # nothing left to delete

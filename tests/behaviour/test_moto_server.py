"""The same stack over HTTP, against ``moto_server`` started as its own process on loopback:
what a user's CI would run, with real request serialization and no in-process patching."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tasklayer_tasks.runtime import CloudTarget, Executor
from tests.behaviour.stack import counted_context, network_stack


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def moto_server() -> Iterator[str]:
    port = _free_port()
    exe = Path(sys.executable).with_name("moto_server")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "moto.server"]
    proc = subprocess.Popen([*cmd, "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/moto-api/", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("moto_server did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


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

"""A real Kubernetes API server (the apiextensions-apiserver over an embedded etcd) as its own
process on loopback: built once by ``kube/build.sh`` into ``.tasklayer-cache/``, started on a
free port, ready when ``/readyz`` answers, stopped on exit.

It serves CRDs and their custom resources only (no core API: no namespaces, events or RBAC);
every request with the generated kubeconfig's token is allowed. ``ApiServer(recipe="full")``
starts kube-apiserver instead (``kube/full/main.go``: the core API — Services, Nodes,
Namespaces, Events — and CRDs), the same way, with the same flags and kubeconfig.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from testbed.moto import free_port

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "kube" / "build.sh"
TOKEN = "tasklayer-test-token"


class ApiServerError(RuntimeError):
    """The server could not be built or did not become ready; the message says why."""


def build(recipe: str = "") -> Path:
    """The server's binary, built by ``kube/build.sh`` unless its cache already holds it.

    A machine without Go fails here, loudly: the API server tests are part of the suite, and
    skipping them would hide that CI no longer checks the CRDs against a real server.
    """
    if shutil.which("go") is None:
        raise ApiServerError(
            "no Go toolchain on PATH: the real API server (kube/main.go) is built with Go;"
            " install the version kube/go.mod names"
        )
    done = subprocess.run(
        ["bash", str(BUILD), *([recipe] if recipe else [])], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise ApiServerError(f"kube/build.sh failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


class ApiServer:
    """Start with ``start()`` (or ``with``); ``restart()`` keeps the etcd data and the port."""

    def __init__(
        self, binary: Path | None = None, data_dir: Path | None = None, recipe: str = ""
    ) -> None:
        self.binary, self.recipe = binary, recipe
        self._own_dir = data_dir is None
        self.data_dir = data_dir or Path(tempfile.mkdtemp(prefix="tasklayer-apiserver-"))
        self.kubeconfig = self.data_dir / "kubeconfig"
        self.port = 0
        self.url = ""
        self.token = TOKEN
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = self.data_dir / "apiserver.log"

    @property
    def ca_file(self) -> Path:
        return self.data_dir / "certs" / "apiserver.crt"

    def start(self, timeout: float = 120.0) -> ApiServer:
        if self.binary is None:
            self.binary = build(self.recipe)
        self.port = self.port or free_port()
        self.url = f"https://127.0.0.1:{self.port}"
        args = [str(self.binary), f"--data-dir={self.data_dir}", f"--port={self.port}"]
        args.append(f"--token={self.token}")
        with open(self._log, "ab") as log:
            self._proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self._ready():
            assert self._proc is not None
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ApiServerError(
                    f"the API server on {self.url} did not become ready:\n{self.log_tail()}"
                )
            time.sleep(0.1)  # waiting for a child process to listen, not for the cluster

    def _ready(self) -> bool:
        if not (self.kubeconfig.exists() and self.ca_file.exists()):
            return False
        request = urllib.request.Request(
            f"{self.url}/readyz", headers={"Authorization": f"Bearer {self.token}"}
        )
        context = ssl.create_default_context(cafile=str(self.ca_file))
        try:
            with urllib.request.urlopen(request, timeout=2, context=context) as answer:
                return bool(answer.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def log_tail(self, chars: int = 4000) -> str:
        return self._log.read_text(errors="replace")[-chars:] if self._log.exists() else ""

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None

    def restart(self, timeout: float = 120.0) -> ApiServer:
        """Stop and start again over the same data; ready once every CRD it stored is served
        again (its ``/readyz`` answers before the CRDs' endpoints are back, where a real
        kube-apiserver's waits for them: ``poststarthook/crd-informer-synced``)."""
        self.stop()
        self.start(timeout)
        self._wait_served(timeout)
        return self

    def _get(self, path: str) -> tuple[int, bytes]:
        request = urllib.request.Request(
            f"{self.url}{path}", headers={"Authorization": f"Bearer {self.token}"}
        )
        context = ssl.create_default_context(cafile=str(self.ca_file))
        try:
            with urllib.request.urlopen(request, timeout=5, context=context) as answer:
                return int(answer.status), answer.read()
        except urllib.error.HTTPError as error:
            return int(error.code), b""
        except (OSError, urllib.error.URLError):
            return 0, b""

    def _wait_served(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            status, body = self._get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
            if status == 200:
                crds = json.loads(body)["items"]
                paths = {
                    f"/apis/{c['spec']['group']}/{v['name']}"
                    for c in crds
                    for v in c["spec"]["versions"]
                    if v.get("served")
                }
                if all(self._get(path)[0] == 200 for path in sorted(paths)):
                    return
            if time.monotonic() > deadline:
                raise ApiServerError(f"the CRDs on {self.url} were not served again in {timeout} s")
            time.sleep(0.2)  # waiting for the restarted server's CRD handlers, not for the cloud

    def close(self) -> None:
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> ApiServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.close()


def environ_kubeconfig(server: ApiServer) -> dict[str, str]:
    """The environment for a child process (an operator) that should talk to ``server``."""
    return {**os.environ, "KUBECONFIG": str(server.kubeconfig)}

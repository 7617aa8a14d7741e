"""The generated aws/ec2 kopf operator (``testbed/kopf_ec2.py``) as its own ``kopf run``
process against a :class:`testbed.apiserver.ApiServer` and a cloud URL (``moto_server``, usually
behind :class:`testbed.proxy.FaultProxy`): shared by the operator tests and
``bench/operator_scale.py``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

from testbed.apiserver import ApiServer, environ_kubeconfig

OPERATOR = Path(__file__).resolve().parent / "kopf_ec2.py"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


class Operator:
    """One ``kopf run`` of the operator in ``namespace``; ``kill()`` is ``kill -9``."""

    started: ClassVar[list[Operator]] = []  # every one a test started: stopped after it

    def __init__(
        self,
        apiserver: ApiServer,
        cloud_url: str,
        namespace: str,
        log: Path,
        peering: str | None = None,
        priority: int = 0,
    ) -> None:
        self.env = {**environ_kubeconfig(apiserver), **CREDENTIALS}
        self.env["TASKLAYER_AWS_ENDPOINT"] = cloud_url
        self.namespace, self.log, self.peering, self.priority = namespace, log, peering, priority
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._since = 0

    def start(self) -> Operator:
        args = [sys.executable, "-m", "kopf", "run", "--namespace", self.namespace]
        if self.peering is None:
            args.append("--standalone")
        else:
            args += [f"--peering={self.peering}", f"--priority={self.priority}"]
        self.starts += 1
        Operator.started.append(self)
        self._since = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            out.write(f"\n=== start {self.starts} ===\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [*args, str(OPERATOR)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env,
                cwd=self.log.parent,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no finalizer, no status write, no goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def failed(self) -> bool:
        """Dead, or kopf has failed for good since the last start (a watch answered 404: it
        shuts down, and may hang there), where a Deployment's liveness probe would restart it."""
        if self.proc is None or self.proc.poll() is not None:
            return True
        with open(self.log, "rb") as log:
            log.seek(self._since)
            return b"multitasker has failed" in log.read()

    def said(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

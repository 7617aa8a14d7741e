"""``moto_server`` as its own process on loopback, with moto's reset endpoint between cells."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class MotoServer:
    """Start with ``start()`` (or ``with``), empty every backend with ``reset()``."""

    def __init__(self) -> None:
        self.url = ""
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> MotoServer:
        port = free_port()
        exe = Path(sys.executable).with_name("moto_server")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "moto.server"]
        self._proc = subprocess.Popen(
            [*cmd, "-H", "127.0.0.1", "-p", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/moto-api/", timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self._proc.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"moto_server did not start on {self.url}") from None
                time.sleep(0.05)  # waiting for a child process to listen, not for the cloud

    def reset(self) -> None:
        request = urllib.request.Request(f"{self.url}/moto-api/reset", data=b"", method="POST")
        # a loaded machine (2 cores shared) can take well over 10 s to empty every backend
        urllib.request.urlopen(request, timeout=120).close()

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:  # moto keeps its state in memory only: nothing is lost if it must be killed
                self._proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None

    def __enter__(self) -> MotoServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

"""A proxy in front of the test API server that answers chosen writes with 409 Conflict.

The operator is pointed at it with a kubeconfig of its own (plain HTTP on loopback, the same
token); every request goes on to the API server over TLS and its answer streams back as it
comes (watches included). A planned conflict answers the next ``times`` status writes
(``PATCH``/``PUT`` of ``.../status``) in the namespace with the API server's own 409 Status
body, without forwarding them: what a write racing another writer gets from a real server.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from aiohttp import web

from testbed.apiserver import ApiServer

_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"}
)


def conflict_body(path: str) -> dict[str, Any]:
    name = path.rstrip("/").split("/")[-2]
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": f'Operation cannot be fulfilled on "{name}": the object has been modified;'
        " please apply your changes to the latest version and try again",
        "reason": "Conflict",
        "details": {"name": name},
        "code": 409,
    }


@dataclass
class ConflictProxy:
    """``start()``, hand ``kubeconfig`` to the client, ``plan(namespace, times)``."""

    server: ApiServer
    workdir: Path
    conflicts: list[str] = field(default_factory=list)  # the paths answered with 409
    _planned: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _thread: threading.Thread | None = None
    port: int = 0

    @property
    def kubeconfig(self) -> Path:
        return self.workdir / "kubeconfig-conflicts"

    def plan(self, namespace: str, times: int) -> None:
        with self._lock:
            self._planned[namespace] = self._planned.get(namespace, 0) + times

    def _conflicts(self, method: str, path: str) -> bool:
        if method not in ("PATCH", "PUT") or not path.endswith("/status"):
            return False
        parts = path.split("/")
        namespace = parts[parts.index("namespaces") + 1] if "namespaces" in parts else ""
        with self._lock:
            if self._planned.get(namespace, 0) <= 0:
                return False
            self._planned[namespace] -= 1
            self.conflicts.append(path)
        return True

    def start(self) -> ConflictProxy:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(self._serve())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="conflict-proxy", daemon=True)
        self._thread.start()
        ready.wait(30)
        config = yaml.safe_load(self.server.kubeconfig.read_text())
        for cluster in config["clusters"]:
            cluster["cluster"] = {"server": f"http://127.0.0.1:{self.port}"}
        self.kubeconfig.write_text(yaml.safe_dump(config))
        return self

    async def _serve(self) -> None:
        context = ssl.create_default_context(cafile=str(self.server.ca_file))
        # no connection limit: an operator holds a watch open per kind (over a hundred here)
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(ssl=context, limit=0),
            timeout=aiohttp.ClientTimeout(total=None),
        )
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0)  # open watches: cut, not awaited
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        if self._conflicts(request.method, request.path):
            return web.json_response(conflict_body(request.path), status=409)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP}
        url = f"{self.server.url}{request.path_qs}"
        body = await request.read()
        async with self._session.request(
            request.method, url, headers=headers, data=body or None
        ) as upstream:
            answer = web.StreamResponse(status=upstream.status)
            for key, value in upstream.headers.items():
                if key.lower() not in _HOP_BY_HOP:
                    answer.headers[key] = value
            await answer.prepare(request)
            async for chunk in upstream.content.iter_any():
                await answer.write(chunk)
            await answer.write_eof()
            return answer

    def stop(self) -> None:
        if self._loop is None:
            return

        async def close() -> None:
            if self._runner is not None:
                # watches still open are cut: the client is stopped by now
                await self._runner.shutdown()
                await self._runner.cleanup()
            await self._session.close()

        try:
            asyncio.run_coroutine_threadsafe(close(), self._loop).result(30)
        except TimeoutError:
            pass  # a watch that would not end: the loop stops below all the same
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(30)
        self._loop = None

    def __enter__(self) -> ConflictProxy:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

"""Where tasks and reconcilers run: the cloud's location, its clients, and the retry policy.

The user's own SDK configuration comes in whole: a botocore ``Config`` (retries, timeouts,
user agent) or session for AWS, an authorized ``http`` for GCP. The runtime adds only what
its safety needs: a second botocore client with botocore's retries off, for mutating calls that
carry no idempotency token (they must never be sent twice blindly), and a named retry mode
where the user names none: botocore's own default changed between the versions the package
supports (``legacy``, five attempts, before 1.44; ``standard``, three, since), and how often a
call is tried must not depend on which botocore happens to be installed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .calls import READ_PREFIXES, CallCount
from .ownership import Owner
from .retry import RetryPolicy
from .snapshot import Snapshots

DEFAULT_RETRY_MODE = "standard"  # botocore's retry mode when the user configures none


@dataclass
class Context:
    """``cluster`` names the owner of what tasks create (their ownership tags or labels);
    AWS clients come from botocore (``session``, ``endpoint_url``, ``config``); GCP clients
    from googleapiclient, built from the discovery documents shipped with the tasks, one per
    thread (googleapiclient's ``httplib2.Http`` is not thread-safe), each over an http of its
    own from ``new_http`` (``lambda: AuthorizedHttp(credentials, http=httplib2.Http())``), or
    else over ``http`` (an authorized http, or the testing fake), whose requests are then
    made one at a time."""

    region: str = "us-east-1"
    """The region calls go to (AWS; GCP's regional resources)."""
    cluster: str = ""
    """The owner of what tasks create: their ownership tags or labels name it."""
    endpoint_url: str | None = None
    """An AWS endpoint other than the region's (moto_server, a proxy); None for the real one."""
    session: Any = None
    """The botocore session AWS clients are made from; None for a new default one."""
    config: Any = None
    """A ``botocore.config.Config``, merged into every AWS client the runtime makes."""
    project: str = ""
    """The GCP project resources are in."""
    zone: str = ""
    """The GCP zone of zonal resources."""
    http: Any = None
    """An authorized http (or the testing fake) every GCP client shares, one request at a time."""
    new_http: Callable[[], Any] | None = None
    """Makes an authorized http per thread for GCP clients; preferred to ``http`` when set."""
    subscription: str = ""
    """The Azure subscription resources are in."""
    azure_transport: Any = None
    """An azure-core ``HttpTransport`` Azure calls go through (a replay of recorded ARM
    traffic); None for azure-core's ``RequestsTransport``."""
    azure_credential_policy: Any = None
    """The azure-core authentication policy Azure calls carry (``BearerTokenCredentialPolicy``
    over an azure-identity credential and ARM's scope); None where the transport needs none."""
    operation_timeout: float = 300.0
    """Seconds one call waits on a long-running operation (GCP)."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    """How throttled, unavailable and idempotent calls of unknown outcome are tried again."""
    owner_marks: dict[str, str] = field(default_factory=dict)
    """Marks the owner of what tasks on this context create and manage must also carry
    (:meth:`.ownership.Owner.within`): one consumer's share of the cluster (a cloud-provider's
    Service); ``dataclasses.replace(context, owner_marks=...)`` keeps the clients and counts."""
    owner: Owner | None = None
    """The owner of what tasks on this context create, when not the cloud's kOps convention
    for ``cluster`` (:meth:`.ownership.Owner.cloud_provider_gce`: the Kubernetes
    cloud-provider's, recorded in descriptions); still narrowed by ``owner_marks``."""
    snapshots: Snapshots | None = field(default=None, repr=False, compare=False)
    """The read snapshots of the ``batched_reads`` blocks open on this context, or those kept
    across passes (:meth:`share_reads`); None when none."""
    calls: CallCount = field(default_factory=CallCount, repr=False, compare=False)
    """Every call sent on the context's clients (an executor's report takes its share)."""
    _clients: dict[Any, Any] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @contextmanager
    def batched_reads(self, listings: bool = True) -> Iterator[Snapshots]:
        """One pass's read snapshots (:mod:`.snapshot`), for as long as the block runs; runs
        that overlap on one context share them (every write drops what it makes stale).
        ``listings=False``: only finds' own reads are kept, no listing by owner is made (the
        snapshots of a run already open on the context, or kept across passes by
        :meth:`share_reads`, are shared as they are)."""
        with self._lock:
            if self.snapshots is None:
                self.snapshots = Snapshots(listings)
            snapshots = self.snapshots
            snapshots.users += 1
        try:
            yield snapshots
        finally:
            with self._lock:
                snapshots.users -= 1
                if snapshots.users == 0 and self.snapshots is snapshots:
                    if not snapshots.across_passes:  # (those of share_reads stay)
                        self.snapshots = None

    def share_reads(self, window: float | None) -> Snapshots | None:
        """Keep reads across passes from now on, each listing at most ``window`` seconds
        (:mod:`.snapshot`): an operator's reconciles, each a pass of its own, then share one
        listing of each kind by its owner, so a resync reads each kind about once, not each
        object; every write through a core on the context drops what it touches. None (or 0):
        every pass reads for itself again. Refused while a pass's batched reads are open."""
        with self._lock:
            current = self.snapshots
            if current is not None and not current.across_passes:
                raise RuntimeError("a pass's batched reads are open on this context")
            if not window:
                self.snapshots = None
            elif current is None or current.window != window:
                self.snapshots = Snapshots(window=window)
            return self.snapshots

    def scope(self) -> dict[str, str]:
        """The GCP scope this context names: project, region and zone."""
        return {"project": self.project, "region": self.region, "zone": self.zone}

    def gcp_client(self, document_path: str) -> Any:
        """This thread's googleapiclient resource, built from a shipped discovery document: no
        network and no credentials are needed to build it."""
        key = (document_path, threading.get_ident())
        with self._lock:
            if key not in self._clients:
                from googleapiclient.discovery import build_from_document  # type: ignore[import-untyped]

                with open(document_path, encoding="utf-8") as handle:
                    document = handle.read()
                if self.new_http is not None:
                    http = self.new_http()
                elif self.http is None:
                    http = (
                        None  # googleapiclient makes this client its own, with default credentials
                    )
                else:
                    http = self._clients.setdefault("shared-http", _OneAtATime(self.http))
                self._clients[key] = build_from_document(document, http=http)
            return self._clients[key]

    def client(self, service: str, *, sdk_retries: bool = True) -> Any:
        """A botocore client for ``service`` with the user's config; with ``sdk_retries=False``
        botocore makes exactly one attempt (everything else in the user's config stays)."""
        key = (service, sdk_retries)
        with self._lock:
            if key not in self._clients:
                import botocore.session
                from botocore.config import Config

                session = self.session or botocore.session.get_session()
                config: Config = self.config or Config()
                # Config sets every option it knows as an attribute of its own (its __init__,
                # from OPTION_DEFAULTS), which the stubs do not declare: read from there. Any: the
                # user's retry options as botocore takes them (the stubs' TypedDict is private)
                retries: Any = dict(vars(config).get("retries") or {})
                retries.setdefault("mode", _configured_retry_mode(session))
                if not sdk_retries:  # the user's retry mode stays; only the attempts go to one
                    retries.pop("max_attempts", None)
                    retries["total_max_attempts"] = 1
                config = config.merge(Config(retries=retries))
                client = session.create_client(
                    service, region_name=self.region, endpoint_url=self.endpoint_url, config=config
                )
                # botocore loads a service's paginators on a client's first can_paginate, after
                # scanning every installed service's data directory, unlocked: a pass's first
                # reads, one per thread, would each make that scan at once (40 ms of 16 threads
                # at the head of every chain). Once here, under the lock, is all it costs.
                client.can_paginate(next(iter(client.meta.method_to_api_mapping)))
                client.meta.events.register("before-call.*.*", self._count_aws_call)
                self._clients[key] = client
            return self._clients[key]

    def _count_aws_call(self, model: Any, **_: Any) -> None:
        """botocore's hook, once per call sent (each page of a listing is one)."""
        self.calls.count(read=model.name.startswith(READ_PREFIXES))


def _configured_retry_mode(session: Any) -> str:
    """The retry mode the user gave botocore outside the ``Config`` (``AWS_RETRY_MODE``, the
    profile's ``retry_mode``), else :data:`DEFAULT_RETRY_MODE`; never botocore's default."""
    from botocore.exceptions import ProfileNotFound

    mode = os.environ.get("AWS_RETRY_MODE")
    if not mode:
        try:
            mode = session.get_scoped_config().get("retry_mode")
        except ProfileNotFound:
            mode = None
    return mode or DEFAULT_RETRY_MODE


class _OneAtATime:
    """One http shared by every thread's client, its requests made one at a time: an
    ``httplib2.Http`` keeps one connection per host and is not safe to use concurrently."""

    def __init__(self, http: Any) -> None:
        self._http, self._lock = http, threading.Lock()

    def request(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return self._http.request(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._http, name)

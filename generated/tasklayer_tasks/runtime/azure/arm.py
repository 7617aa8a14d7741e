"""ARM's REST calls over azure-core's pipeline: one :class:`Arm` per subscription.

azure-core does what ARM clients share: its ``RetryPolicy`` resends a refused request (429 and
the RP's 5xx, honouring ``Retry-After``) and a request that never left; its ``LROBasePolling``
follows a long-running operation (``Azure-AsyncOperation`` first, then ``Location``, then the
status) and makes the final GET of a PUT's resource. Every write this adapter sends carries a
precondition (a create's ``If-None-Match: *``, an update's ``If-Match`` etag) or is idempotent
(DELETE), so no resend of azure-core's can write twice what it meant once. Every try is counted
where the context counts (a policy after the retry policy sees each one).

Waits go through the transport's ``sleep`` (azure-core's own seam), so a replay transport waits
for nothing and a real one waits as ARM asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..contract.calls import CallCount
from ..contract.errors import CloudError
from .errors import translate, transport_error

ENDPOINT = "https://management.azure.com"
TERMINAL = frozenset({"succeeded", "failed", "canceled", "cancelled"})
DONE_AT_ONCE = frozenset({"succeeded"})


@dataclass(frozen=True)
class Answer:
    """An ARM answer: its status, headers (lower-case names) and JSON body (None if empty)."""

    status: int
    headers: Mapping[str, str]
    body: Any


def _counting_policy(calls: CallCount | None) -> Any:
    from azure.core.pipeline.policies import SansIOHTTPPolicy

    class CountEachTry(SansIOHTTPPolicy):  # type: ignore[type-arg]
        def on_request(self, request: Any) -> None:
            if calls is not None:
                calls.count(read=request.http_request.method in ("GET", "HEAD"))

    return CountEachTry()


class Arm:
    """ARM for one subscription: ``request`` one call, ``wait`` on its long-running operation.

    ``transport``: an azure-core ``HttpTransport`` (``RequestsTransport`` when None);
    ``credential_policy``: the authentication policy (azure-core's ``BearerTokenCredentialPolicy``
    over an azure-identity credential), None where the transport needs none (a replay)."""

    def __init__(
        self,
        subscription: str,
        *,
        transport: Any = None,
        credential_policy: Any = None,
        endpoint: str = ENDPOINT,
        retry_total: int = 6,
        calls: CallCount | None = None,
        polling_interval: float = 10.0,
    ) -> None:
        from azure.core import PipelineClient
        from azure.core.pipeline.policies import (
            ContentDecodePolicy,
            HeadersPolicy,
            RequestIdPolicy,
            RetryPolicy,
            UserAgentPolicy,
        )

        self.subscription = subscription
        self.endpoint = endpoint.rstrip("/")
        self.calls = calls
        self.polling_interval = polling_interval
        policies = [
            HeadersPolicy(),
            RequestIdPolicy(),  # x-ms-client-request-id: ARM's trace; azure-core's polling reads it
            UserAgentPolicy(sdk_moniker="tasklayer"),
            RetryPolicy(retry_total=retry_total, retry_backoff_factor=0.8),
            *([credential_policy] if credential_policy is not None else []),
            ContentDecodePolicy(),
            _counting_policy(calls),
        ]
        if transport is None:
            from azure.core.pipeline.transport import RequestsTransport

            transport = RequestsTransport()
        self.transport = transport
        self.client: Any = PipelineClient(self.endpoint, policies=policies, transport=transport)

    def sleep(self, seconds: float) -> None:
        """Wait as the transport waits (azure-core's seam: a replay waits for nothing)."""
        self.transport.sleep(seconds)

    def url(self, path: str) -> str:
        return path if path.startswith("https://") else self.endpoint + path

    def request(
        self,
        method: str,
        path: str,
        api_version: str | None,
        *,
        operation: str,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[Answer, Any]:
        """Send one call; its :class:`Answer` and azure-core's pipeline response (for
        :meth:`wait`). An answer of 400 and up raises the contract's error for it."""
        from azure.core.exceptions import ServiceRequestError, ServiceResponseError
        from azure.core.rest import HttpRequest

        params = {"api-version": api_version} if api_version else None
        request = HttpRequest(
            method, self.url(path), params=params, json=body, headers=dict(headers or {})
        )
        try:
            response = self.client.send_request(request, _return_pipeline_response=True)
        except ServiceRequestError as err:
            raise transport_error(err, operation, sent=False) from None
        except ServiceResponseError as err:
            raise transport_error(err, operation, sent=method != "GET") from None
        answer = _answer(response.http_response)
        if answer.status >= 400:
            raise translate(answer.status, answer.body, operation)
        return answer, response

    def wait(self, answer: Answer, response: Any, operation: str, final_via: str | None) -> Any:
        """The resource a long-running PUT or DELETE ends with (None for a DELETE), followed
        with azure-core's polling unless the answer is final already: a 200/201 whose
        ``provisioningState`` is ``Succeeded``, or a 204."""
        if answer.status == 204 or (
            answer.status in (200, 201) and _state(answer.body) in DONE_AT_ONCE
        ):
            return answer.body
        if answer.status == 200 and response.http_request.method == "DELETE":
            return None
        from azure.core.exceptions import HttpResponseError
        from azure.core.polling import LROPoller
        from azure.core.polling.base_polling import (
            LocationPolling,
            LROBasePolling,
            OperationResourcePolling,
            StatusCheckPolling,
        )

        options = {"final-state-via": final_via} if final_via else None
        polling: Any = LROBasePolling(
            timeout=self.polling_interval,  # seconds between polls when ARM names none
            lro_algorithms=[
                OperationResourcePolling("azure-asyncoperation", lro_options=options),
                LocationPolling(),
                StatusCheckPolling(),
            ],
            lro_options=options,
        )

        def final(pipeline_response: Any) -> Any:
            return _answer(pipeline_response.http_response).body

        try:
            return LROPoller(self.client, response, final, polling).result()
        except HttpResponseError as err:
            status = err.status_code or 0
            body = err.response.text() if err.response is not None else ""
            raise translate(status or 500, body, operation) from None
        except CloudError:
            raise
        except Exception as err:  # azure-core's OperationFailed, BadStatus, BadResponse
            raise translate(
                500, {"error": {"code": type(err).__name__, "message": str(err)}}, operation
            ) from None


def _answer(response: Any) -> Answer:
    import json

    text = response.text() if response.content else ""
    try:
        body = json.loads(text) if text.strip() else None
    except ValueError:
        body = text
    headers = {k.lower(): v for k, v in response.headers.items()}
    return Answer(response.status_code, headers, body)


def _state(body: Any) -> str | None:
    props = body.get("properties") if isinstance(body, dict) else None
    value = props.get("provisioningState") if isinstance(props, dict) else None
    return value.lower() if isinstance(value, str) else None

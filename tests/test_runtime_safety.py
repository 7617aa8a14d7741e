"""Runtime contract pieces that need no emulator: the error taxonomy at each provider's
boundary, redaction at any depth, update order from data, the user's SDK configuration, and
what a create hands out only once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectTimeoutError,
    ParamValidationError,
    ReadTimeoutError,
)
from googleapiclient.errors import HttpError
from httplib2 import Response
from moto import mock_aws

from tasklayer_tasks.runtime import (
    AccessDeniedError,
    AwsTask,
    CloudTarget,
    ConflictError,
    Context,
    Executor,
    InUseError,
    InvalidRequestError,
    Lifecycle,
    NotFoundError,
    OutcomeUnknownError,
    PreconditionFailedError,
    ThrottledError,
    UnavailableError,
)
from tasklayer_tasks.runtime.aws.errors import translate as aws_translate
from tasklayer_tasks.runtime.contract.diff import shown
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.runtime.contract.spec import (
    CreateSpec,
    FieldSpec,
    ReadSpec,
    ResourceSpec,
    update_order,
)
from tasklayer_tasks.runtime.gcp.errors import translate as gcp_translate


def client_error(code: str, status: int = 400) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": status}}, "Op")


@pytest.mark.parametrize(("err", "kind"), [
    (client_error("RequestLimitExceeded", 503), ThrottledError),
    (client_error("InvalidVpcID.NotFound"), NotFoundError),
    (client_error("NoSuchEntity", 404), NotFoundError),
    (client_error("404", 404), NotFoundError),
    (client_error("OwnershipControlsNotFoundError", 404), NotFoundError),  # S3's configuration reads  # a HEAD answer (HeadBucket) has no body: its status is the code
    (client_error("UnauthorizedOperation", 403), AccessDeniedError),
    (client_error("DependencyViolation"), InUseError),
    (client_error("InvalidPermission.Duplicate"), ConflictError),
    (client_error("InternalError", 500), OutcomeUnknownError),
    (client_error("InvalidParameterValue"), InvalidRequestError),
    (ReadTimeoutError(endpoint_url="https://x"), OutcomeUnknownError),
    (ConnectTimeoutError(endpoint_url="https://x"), UnavailableError),
])
def test_botocore_errors_become_the_runtimes_own(err: Exception, kind: type) -> None:
    translated = aws_translate(err, "CreateVpc")
    assert type(translated) is kind and str(translated).startswith("CreateVpc: ")


def http_error(status: int, reason: str = "", body: bytes | None = None) -> HttpError:
    content = body if body is not None else json.dumps(
        {"error": {"code": status, "message": "m", "errors": [{"reason": reason}]}}).encode()
    return HttpError(Response({"status": str(status)}), content)


@pytest.mark.parametrize(("err", "kind"), [
    (http_error(404, "notFound"), NotFoundError),
    (http_error(403, "rateLimitExceeded"), ThrottledError),
    (http_error(429), ThrottledError),
    (http_error(403, "forbidden"), AccessDeniedError),
    (http_error(409, "alreadyExists"), ConflictError),
    (http_error(412, "conditionNotMet"), PreconditionFailedError),
    (http_error(400, "resourceInUseByAnotherResource"), InUseError),
    (http_error(400, "invalid"), InvalidRequestError),
    (http_error(503, "backendError"), OutcomeUnknownError),
    (http_error(500, body=b"<html>oops</html>"), OutcomeUnknownError),
    (TimeoutError("timed out"), OutcomeUnknownError),
])
def test_googleapiclient_errors_become_the_runtimes_own(err: Exception, kind: type) -> None:
    assert type(gcp_translate(err, "compute.networks.insert")) is kind


def test_a_malformed_google_error_body_is_reported_as_it_came() -> None:
    translated = gcp_translate(http_error(502, body=b"upstream connect error"), "compute.networks.get")
    assert "upstream connect error" in str(translated)


def test_botocore_validation_errors_lose_their_values() -> None:
    err = ParamValidationError(report="Invalid type for parameter KeyMaterial, value: s3cr3t, type: <class 'int'>")
    assert "s3cr3t" not in str(aws_translate(err, "ImportKeyPair"))


def test_outcome_unknown_is_retried_only_when_idempotent() -> None:
    calls: list[int] = []

    def lost() -> None:
        calls.append(1)
        raise OutcomeUnknownError("CreateVpc", "ReadTimeout", "")

    policy = RetryPolicy(attempts=3, sleep=lambda _: None)
    with pytest.raises(OutcomeUnknownError):
        policy.call(lost, idempotent=False)
    assert len(calls) == 1
    with pytest.raises(OutcomeUnknownError):
        policy.call(lost, idempotent=True)
    assert len(calls) == 4


SECRET_SPEC = ResourceSpec(
    service="ec2", name="LaunchTemplate",
    fields=(
        FieldSpec(name="LaunchTemplateName", attr="launch_template_name", mutability="create_only"),
        FieldSpec(name="Password", attr="password", mutability="mutable", sensitive=True),
        FieldSpec(name="LaunchTemplateData", attr="launch_template_data", mutability="mutable",
                  sensitive_paths=("UserData", "BlockDeviceMappings[].Secret")),
    ),
    primary=("Id",), natural=(), parent=(), arn=None, create=None, read=None, updates=(), delete=None, tags=None,
)


@dataclass(kw_only=True, eq=False, repr=False)
class Template(AwsTask):
    launch_template_name: str | None = None
    password: str | None = None
    launch_template_data: dict[str, Any] | None = None
    spec: ClassVar[ResourceSpec] = SECRET_SPEC


def test_secrets_at_any_depth_never_reach_repr_or_plans() -> None:
    data = {"UserData": "c2VjcmV0", "ImageId": "ami-1", "BlockDeviceMappings": [{"Secret": "x1", "Name": "a"}]}
    task = Template(name="t", password="hunter2", launch_template_data=data)
    text = repr(task)
    assert "hunter2" not in text and "c2VjcmV0" not in text and "x1" not in text
    assert "ami-1" in text and "'Name': 'a'" in text
    shown_value = shown(SECRET_SPEC, "LaunchTemplateData", data)
    assert "c2VjcmV0" not in shown_value and "<redacted>" in shown_value
    assert data["UserData"] == "c2VjcmV0"  # redacting a copy, not the task's value


def test_update_order_follows_after_not_dict_order() -> None:
    spec = ResourceSpec(
        service="ec2", name="Vpc", fields=(
            FieldSpec(name="EnableDnsHostnames", attr="h", mutability="mutable", after=("EnableDnsSupport",)),
            FieldSpec(name="EnableDnsSupport", attr="s", mutability="mutable"),
        ), primary=(), natural=(), parent=(), arn=None, create=None, read=None, updates=(), delete=None, tags=None)
    assert [f.name for f in update_order(spec, ["EnableDnsHostnames", "EnableDnsSupport"])] == [
        "EnableDnsSupport", "EnableDnsHostnames"]
    assert [f.name for f in update_order(spec, ["EnableDnsHostnames"])] == ["EnableDnsHostnames"]


def test_context_takes_the_users_botocore_config_and_keeps_its_own_no_retry_client() -> None:
    context = Context(config=Config(read_timeout=7, user_agent_extra="my-tool/1.0", retries={"max_attempts": 9}))
    normal, once = context.client("ec2"), context.client("ec2", sdk_retries=False)
    assert normal.meta.config.read_timeout == 7 and once.meta.config.read_timeout == 7
    assert "my-tool/1.0" in normal.meta.config.user_agent_extra and "my-tool/1.0" in once.meta.config.user_agent_extra
    # botocore's reading of it; the mode is the runtime's named one, not botocore's default
    assert normal.meta.config.retries == {"total_max_attempts": 10, "mode": "standard"}
    assert once.meta.config.retries == {"total_max_attempts": 1, "mode": "standard"}


KEY_PAIR = ResourceSpec(
    service="ec2", name="KeyPair",
    fields=(
        FieldSpec(name="KeyName", attr="key_name", mutability="create_only", in_create=True),
        FieldSpec(name="KeyPairId", attr="key_pair_id", mutability="read_only"),
    ),
    primary=("KeyPairId",), natural=("KeyName",), parent=(), arn=None,
    create=CreateSpec(operation="CreateKeyPair", output_member=None, output_is_list=False, id_member="KeyPairId",
                      idempotency_token=None, returned_once=("KeyMaterial",)),
    read=ReadSpec(operation="DescribeKeyPairs", output_member="KeyPairs", output_is_list=True, id_filter="KeyPairIds",
                  id_filter_is_list=True, filters_member=None, natural_filter="KeyNames", nested_member=None),
    updates=(), delete=None, tags=None,
)


@dataclass(kw_only=True, eq=False, repr=False)
class KeyPair(AwsTask):
    key_name: str | None = None
    id: str | None = None
    spec: ClassVar[ResourceSpec] = KEY_PAIR


def test_a_value_a_create_returns_only_once_reaches_the_callback_and_nowhere_else() -> None:
    seen: list[dict[str, Any]] = []
    with mock_aws():
        context = Context(cluster="demo", retry=RetryPolicy(sleep=lambda _: None))
        target = CloudTarget(context, on_created=lambda task, identity: seen.append(dict(identity)))
        key = KeyPair(name="admin", key_name="admin")
        Executor(target, sleep=lambda _: None).run([key])
    assert seen and "BEGIN" in seen[0]["KeyMaterial"] and seen[0]["KeyPairId"] == key.id
    assert "BEGIN" not in repr(key) and key.returned["KeyMaterial"] == seen[0]["KeyMaterial"]


def test_warn_if_insufficient_access_warns_on_any_cloud() -> None:
    @dataclass(kw_only=True, eq=False, repr=False)
    class Denied(AwsTask):
        spec: ClassVar[ResourceSpec] = SECRET_SPEC

        def desired(self, dry_run: bool = False) -> Any:  # its find's first step: refused
            raise gcp_translate(http_error(403, "forbidden"), "compute.networks.get")

    target = CloudTarget(Context(cluster="demo"))
    Executor(target, sleep=lambda _: None).run([Denied(name="x", lifecycle=Lifecycle.WARN_IF_INSUFFICIENT_ACCESS)])
    assert target.warnings and "not allowed" in target.warnings[0]


def test_the_no_retry_client_makes_exactly_one_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    # nothing listens on the discard port of loopback: every attempt fails to connect
    context = Context(endpoint_url="http://127.0.0.1:9", config=Config(retries={"mode": "standard"}, connect_timeout=0.2))
    attempts = {}
    for retries in (True, False):
        client = context.client("ec2", sdk_retries=retries)
        made = [0]
        client.meta.events.register("request-created", lambda made=made, **_: made.__setitem__(0, made[0] + 1))
        with pytest.raises(BotoCoreError):  # nothing answers: it cannot connect
            client.describe_vpcs()
        attempts[retries] = made[0]
    assert attempts == {True: 3, False: 1}


def test_a_gcp_reconciler_returns_a_condition_for_any_cloud_error() -> None:
    from googleapiclient.http import HttpMockSequence

    from tasklayer_tasks.gcp.compute.reconcilers import NetworkReconciler

    body = json.dumps({"error": {"code": 403, "message": "Required 'compute.networks.get' permission",
                                 "errors": [{"reason": "forbidden"}]}})
    context = Context(project="proj", http=HttpMockSequence([({"status": "403"}, body)]))
    result = NetworkReconciler(context, "c1").reconcile({"name": "net"}, {})
    condition = result.conditions[0]
    assert (condition.status, condition.reason) == ("False", "AccessDenied")
    assert "compute.networks.get" in condition.message and result.requeue_after is not None


def test_mutability_is_one_enum_and_the_runtime_never_spells_it_as_a_string() -> None:
    import re
    from pathlib import Path

    from codegen.model import Mutability as ModelMutability
    from tasklayer_tasks.runtime.contract.spec import Mutability

    assert {m.name: m.value for m in Mutability} == {m.name: m.value for m in ModelMutability}
    runtime = Path(__file__).resolve().parent.parent / "templates" / "runtime"
    spelled = [f"{p.name}:{n}" for p in sorted(runtime.rglob("*.py")) if p.name != "spec.py"
               for n, line in enumerate(p.read_text().splitlines(), 1)
               if re.search(r"mutability\s*[!=]=\s*[\"']", line)]
    assert spelled == []
    assert FieldSpec(name="CidrBlock", attr="cidr_block", mutability="mutable").mutability is Mutability.MUTABLE


UNFINDABLE_KEY_PAIR = ResourceSpec(
    service="ec2", name="KeyPair",
    fields=(
        FieldSpec(name="KeyName", attr="key_name", mutability="create_only", in_create=True),
        FieldSpec(name="KeyPairId", attr="key_pair_id", mutability="read_only"),
    ),
    # an answer whose id the annotation did not place, and no natural key: nothing can find it
    primary=("KeyPairId",), natural=(), parent=(), arn=None,
    create=CreateSpec(operation="CreateKeyPair", output_member=None, output_is_list=False, id_member=None,
                      idempotency_token=None),
    read=ReadSpec(operation="DescribeKeyPairs", output_member="KeyPairs", output_is_list=True, id_filter="KeyPairIds",
                  id_filter_is_list=True, filters_member=None, natural_filter=None, nested_member=None),
    updates=(), delete=None, tags=None,
)


@dataclass(kw_only=True, eq=False, repr=False)
class UnfindableKeyPair(AwsTask):
    key_name: str | None = None
    id: str | None = None
    spec: ClassVar[ResourceSpec] = UNFINDABLE_KEY_PAIR


def test_a_create_that_returned_is_not_sent_again_while_its_resource_is_unseen() -> None:
    import boto3
    import botocore.session

    calls: list[str] = []
    with mock_aws():
        session = botocore.session.get_session()
        context = Context(cluster="demo", session=session, retry=RetryPolicy(attempts=2, sleep=lambda _: None))
        session.register("before-call.ec2.CreateKeyPair", lambda **_: calls.append("CreateKeyPair"))
        clock = iter(range(1000))
        executor = Executor(CloudTarget(context), sleep=lambda _: None, clock=lambda: float(next(clock)),
                            retry_interval=0.0, task_deadline=5.0)
        with pytest.raises(Exception, match="created, but not visible yet") as failed:
            executor.run([UnfindableKeyPair(name="admin", key_name="admin")])
        pairs = boto3.client("ec2", region_name="us-east-1").describe_key_pairs()["KeyPairs"]
    assert executor.attempts["KeyPair/admin"] > 1  # it was tried again ...
    assert calls == ["CreateKeyPair"] and len(pairs) == 1  # ... but created once
    assert "not created again" in str(failed.value)

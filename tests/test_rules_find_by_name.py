"""aws.id-selector-takes-the-name and aws.terminal-when-deletion-date, on a toy model and the
pinned Secrets Manager model; and the runtime keeping an id only the calls name (moto): a
secret a fresh run made is found by its name through DescribeSecret's SecretId, and one whose
delete is scheduled (DeletedDate set) is not a live resource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
from botocore.model import ServiceModel
from moto import mock_aws

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws
from codegen.providers.aws.source import load_pinned
from tests.toy_model import TOY, _op, _struct

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _toy(id_doc: str) -> Service:
    ops = {
        "CreateVault": _op("CreateVault", "CreateVaultRequest", "CreateVaultResponse"),
        "DescribeVault": _op("DescribeVault", "VaultIdOnly", "DescribeVaultResponse"),
        "DeleteVault": _op("DeleteVault", "VaultIdOnly"),
    }
    shapes: dict[str, Any] = {
        "Date": {"type": "timestamp"},
        "CreateVaultRequest": _struct({"Name": "String", "Description": "String"}, ("Name",)),
        "CreateVaultResponse": _struct({"ARN": "String", "Name": "String"}),
        "VaultIdOnly": {"type": "structure", "required": ["VaultId"],
                        "members": {"VaultId": {"shape": "String", "documentation": id_doc}}},
        "DescribeVaultResponse": _struct({"ARN": "String", "Name": "String", "Description": "String",
                                          "DeletedDate": "Date"}),
    }
    model = {**TOY, "operations": {**TOY["operations"], **ops}, "shapes": {**TOY["shapes"], **shapes}}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_an_id_member_that_takes_the_name_selects_by_the_natural_key() -> None:
    vault = _toy("<p>The ARN or name of the vault.</p>").resource("Vault")
    read = vault.operations.read
    assert read is not None and read.id_filter == "VaultId"
    assert read.natural_filter == "VaultId" and aws(read).natural_filter_is_list is False
    assert read.source == "rule:aws.id-selector-takes-the-name"


def test_an_id_member_that_takes_only_the_arn_does_not() -> None:
    read = _toy("<p>The ARN of the vault.</p>").resource("Vault").operations.read
    assert read is not None and read.natural_filter is None


def test_a_deletion_date_marks_a_resource_gone() -> None:
    readiness = _toy("<p>The ARN of the vault.</p>").resource("Vault").readiness
    assert readiness is not None and readiness.field == "DeletedDate"
    assert readiness.gone_if_set and readiness.ready is None


def test_pinned_secret() -> None:
    src = load_pinned(SCHEMAS, "secretsmanager")
    _, draft = annotate_model(src.model, service="secretsmanager", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    secret = draft.freeze().resource("Secret")
    assert secret.identity.natural == ("Name",)
    assert secret.operations.read is not None and secret.operations.read.natural_filter == "SecretId"
    assert secret.readiness is not None and secret.readiness.field == "DeletedDate"


def test_a_secret_is_found_by_name_and_not_once_its_delete_is_scheduled() -> None:
    from tasklayer_tasks.aws.secretsmanager.core.secret import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("secretsmanager", region_name="us-east-1")
        client.create_secret(Name="app-db", SecretString="x", Tags=[{"Key": "owner", "Value": "me"}])
        core = AwsCore(SPEC, client)
        (found,) = core.find({"Name": "app-db"}, "app-db", match_tags={"owner": "me"})
        assert found["SecretId"] == "app-db"  # what it was asked by: the calls select by it
        assert not SPEC.terminal(found)
        core.delete(found)
        (gone,) = core.find({"Name": "app-db"}, "app-db")  # AWS still describes it ...
        assert SPEC.terminal(gone)  # ... as scheduled for deletion: not a live resource

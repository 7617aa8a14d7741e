"""aws.alternative-create-by-input on the pinned EC2 model: ImportKeyPair is a KeyPair's create
when PublicKeyMaterial (which only it takes) is set; nothing else in the network set gains one."""

from __future__ import annotations

from pathlib import Path

from codegen.model import Mutability
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def test_import_key_pair_is_the_create_when_a_public_key_is_given() -> None:
    src = load_pinned(SCHEMAS, "ec2")
    _, draft = annotate_model(src.model, service="ec2", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    service = draft.freeze()
    key = service.resource("KeyPair")
    assert key.operations.create is not None and key.operations.create.name == "CreateKeyPair"
    assert key.operations.create.alternatives == (("PublicKeyMaterial", "ImportKeyPair"),)
    material = key.field("PublicKeyMaterial")
    assert material.mutability is Mutability.CREATE_ONLY and material.write_only and material.in_create
    assert [r.name for r in service.resources if r.operations.create and r.operations.create.alternatives] == [
        "KeyPair"]

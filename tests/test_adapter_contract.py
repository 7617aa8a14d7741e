"""Both clouds' cores implement the whole adapter protocol (runtime/contract/adapter.py): every
member the engine and the faces use, with the protocol's own signature, so nothing above an
adapter needs to ask whether a verb exists (docs/architecture.md, "The adapter protocol")."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tasklayer_tasks.runtime.aws.core import AwsCore
from tasklayer_tasks.runtime.azure.arm import Arm
from tasklayer_tasks.runtime.azure.core import AzureCore
from tasklayer_tasks.runtime.contract.adapter import Adapter
from tasklayer_tasks.runtime.contract.spec import ResourceSpec
from tasklayer_tasks.runtime.gcp.core import GcpCore

GENERATED = Path(__file__).resolve().parent.parent / "generated"
SPEC = ResourceSpec(
    service="s", name="Thing", fields=(), primary=(), natural=(), parent=(), arn=None,
    create=None, read=None, updates=(), delete=None, tags=None,
)
CORES: dict[str, Any] = {
    "aws": AwsCore(SPEC, client=object()),
    "gcp": GcpCore(SPEC, client=object(), scope={"project": "p"}),
    "azure": AzureCore(SPEC, Arm("subscription", transport=object())),
}


def _protocol_methods() -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(Adapter).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def _protocol_attributes() -> set[str]:
    return {name for name in Adapter.__annotations__ if not name.startswith("_")}


def test_the_protocol_names_what_the_faces_use() -> None:
    """The verbs and attributes the engine and faces use on a core (probed with getattr /
    hasattr before this protocol existed) are all declared."""
    assert set(_protocol_methods()) >= {
        "find", "find_listed", "read_ahead", "listed_owned", "read_separately", "create",
        "update", "delete", "blockers", "operation_done",
    }
    assert _protocol_attributes() >= {"spec", "snapshots", "calls", "answer", "pending"}


@pytest.mark.parametrize("cloud", sorted(CORES))
def test_each_core_has_every_method_with_the_protocols_signature(cloud: str) -> None:
    core = CORES[cloud]
    for name, wanted in _protocol_methods().items():
        method = getattr(type(core), name, None)
        assert method is not None, f"{type(core).__name__} lacks {name}"
        got = inspect.signature(method)
        assert got == wanted, f"{type(core).__name__}.{name}{got} is not the protocol's {name}{wanted}"


@pytest.mark.parametrize("cloud", sorted(CORES))
def test_each_core_has_every_attribute(cloud: str) -> None:
    core = CORES[cloud]
    missing = [name for name in _protocol_attributes() if name not in vars(core)]
    assert not missing, f"{type(core).__name__} lacks {missing}"


def test_a_fresh_core_says_nothing_honestly() -> None:
    """The clouds' "nothing": no count kept by the AWS core, no answer kept by the GCP one, no
    operation running on either, no operation ever running on AWS."""
    aws, gcp = CORES["aws"], CORES["gcp"]
    assert aws.calls is None and aws.pending is None and aws.answer is None
    assert gcp.answer is None and gcp.pending is None
    assert aws.operation_done({"name": "op-1"}) == {"status": "DONE"}
    assert gcp.blockers({"name": "n"}) == []


def test_mypy_accepts_both_cores_as_an_adapter(tmp_path: Path) -> None:
    """Structural typing the way users' type checkers see it: mypy --strict takes an AwsCore
    and a GcpCore where an Adapter is wanted (and refuses something that is not one)."""
    probe = tmp_path / "adapter_probe.py"
    probe.write_text(textwrap.dedent("""\
        from tasklayer_tasks.runtime.aws.core import AwsCore
        from tasklayer_tasks.runtime.azure.core import AzureCore
        from tasklayer_tasks.runtime.contract.adapter import Adapter
        from tasklayer_tasks.runtime.gcp.core import GcpCore


        def aws(core: AwsCore) -> Adapter:
            return core


        def gcp(core: GcpCore) -> Adapter:
            return core


        def azure(core: AzureCore) -> Adapter:
            return core
        """))
    wrong = tmp_path / "adapter_wrong.py"
    wrong.write_text(textwrap.dedent("""\
        from tasklayer_tasks.runtime.contract.adapter import Adapter


        class Half:
            def find(self) -> None: ...


        def half(core: Half) -> Adapter:
            return core
        """))
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent"]
    good = subprocess.run([*command, str(probe)], cwd=GENERATED, capture_output=True, text=True)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = subprocess.run([*command, str(wrong)], cwd=GENERATED, capture_output=True, text=True)
    assert bad.returncode == 1 and "Incompatible return value" in bad.stdout, bad.stdout + bad.stderr


def test_what_differs_by_kind_is_data_on_its_spec() -> None:
    """Each capability the engine must know of a kind reads from the kind's generated spec: no
    adapter is asked whether it has it."""
    from tasklayer_tasks.aws.ec2.core.launch_template import SPEC as LAUNCH_TEMPLATE
    from tasklayer_tasks.aws.ec2.core.route import SPEC as ROUTE
    from tasklayer_tasks.aws.ec2.core.vpc import SPEC as VPC
    from tasklayer_tasks.aws.route53.core.resource_record_set import SPEC as RECORD_SET
    from tasklayer_tasks.gcp.compute.core.backend_service import SPEC as BACKEND_SERVICE
    from tasklayer_tasks.gcp.compute.core.network import SPEC as NETWORK

    vpc = VPC.capabilities()
    assert set(vpc.separate_reads) >= {"EnableDnsHostnames", "EnableDnsSupport"}
    assert not (vpc.versioned or vpc.change_batch or vpc.long_running or vpc.owned_through_parent)
    assert LAUNCH_TEMPLATE.capabilities().versioned
    assert RECORD_SET.capabilities().change_batch
    assert ROUTE.capabilities().owned_through_parent
    assert NETWORK.capabilities().long_running and not VPC.capabilities().long_running
    assert BACKEND_SERVICE.capabilities().fingerprints == ("fingerprint",)
    # declared for Azure (a network's subnets), used by no AWS or GCP kind yet
    assert all(not s.capabilities().child_collections for s in (VPC, NETWORK, RECORD_SET))

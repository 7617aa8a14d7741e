"""The runtime's botocore clients try a call as often whichever botocore is installed: botocore's
default retry mode changed (``legacy``, five attempts, up to 1.43; ``standard``, three, from
1.44), so the runtime names the mode itself where the user names none, and its no-retry client
makes exactly one attempt in every mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from botocore.config import Config
from botocore.exceptions import BotoCoreError

from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.contract.context import DEFAULT_RETRY_MODE

CLOSED_PORT = "http://127.0.0.1:9"  # nothing listens on loopback's discard port: every attempt fails


@pytest.fixture
def no_user_retry_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A user who configured nothing about retries: no environment, an empty profile."""
    for name in ("AWS_RETRY_MODE", "AWS_MAX_ATTEMPTS", "AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    config_file = tmp_path / "config"
    config_file.write_text("[default]\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config_file))
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    return config_file


def _attempts(client) -> int:  # type: ignore[no-untyped-def]
    made = [0]
    client.meta.events.register("request-created", lambda **_: made.__setitem__(0, made[0] + 1))
    with pytest.raises(BotoCoreError):  # nothing answers: it cannot connect
        client.describe_vpcs()
    return made[0]


def test_with_no_mode_given_the_clients_use_the_named_mode_not_botocores_default(no_user_retry_settings: Path) -> None:
    context = Context(endpoint_url=CLOSED_PORT, config=Config(connect_timeout=0.2))
    normal, once = context.client("ec2"), context.client("ec2", sdk_retries=False)
    assert DEFAULT_RETRY_MODE == "standard"
    assert normal.meta.config.retries["mode"] == once.meta.config.retries["mode"] == "standard"
    assert (_attempts(normal), _attempts(once)) == (3, 1)  # standard mode's three; the no-retry client's one


@pytest.mark.parametrize("mode", ["legacy", "standard", "adaptive"])
def test_a_mode_the_user_set_for_botocore_is_kept_and_the_no_retry_client_still_tries_once(
    no_user_retry_settings: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("AWS_RETRY_MODE", mode)
    context = Context(endpoint_url=CLOSED_PORT, config=Config(connect_timeout=0.2))
    normal, once = context.client("ec2"), context.client("ec2", sdk_retries=False)
    assert normal.meta.config.retries["mode"] == once.meta.config.retries["mode"] == mode
    assert once.meta.config.retries["total_max_attempts"] == 1 and _attempts(once) == 1


def test_the_profiles_retry_mode_is_kept_and_the_configs_wins_over_it(no_user_retry_settings: Path) -> None:
    no_user_retry_settings.write_text("[default]\nretry_mode = legacy\n")
    assert Context().client("ec2").meta.config.retries["mode"] == "legacy"
    given = Context(config=Config(retries={"mode": "adaptive"}))
    assert given.client("ec2").meta.config.retries["mode"] == "adaptive"
    assert given.client("ec2", sdk_retries=False).meta.config.retries == {"mode": "adaptive", "total_max_attempts": 1}

"""The launcher fails loudly without Go, and the build is cached on the recipe."""

from __future__ import annotations

import pytest

from testbed import apiserver


def test_a_machine_without_go_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apiserver.shutil, "which", lambda _: None)
    with pytest.raises(apiserver.ApiServerError, match="no Go toolchain"):
        apiserver.build()


def test_the_cached_build_is_keyed_on_the_recipe() -> None:
    binary = apiserver.build()  # built already by .ci/run or the session's fixture: a cache hit
    assert binary.parent.parent.name == "apiserver" and len(binary.parent.name) == 64
    assert apiserver.build() == binary

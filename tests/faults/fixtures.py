"""The pytest fixtures of a moto_server behind the fault proxy: one lab per test module (it
takes seconds to start), reset before each test. Import both names into a test module to use
them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testbed.campaign import Lab, no_sdk_backoff


@pytest.fixture(scope="module")
def module_lab() -> Iterator[Lab]:
    lab = Lab().start()
    try:
        with no_sdk_backoff():
            yield lab
    finally:
        lab.stop()


@pytest.fixture
def lab(module_lab: Lab) -> Lab:
    module_lab.reset()
    return module_lab

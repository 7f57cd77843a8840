"""What the suite needs from the running service, handed over by test/clients/python.test.ts.

The mocha side makes the organizations through the operator API (a funded one, an empty one for
402s, one with a tiny rate limit for 429s) and writes the webhook receiver's certificate, which the
test stack trusts, to files; these fixtures read them from the environment. Without them the suite
cannot test anything, so it fails rather than skips.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from generation_service import Client


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run this suite through test/clients/python.test.ts (npm run test:file -- test/clients/python.test.ts)")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("GS_BASE_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("GS_API_KEY")


@pytest.fixture(scope="session")
def empty_wallet_key() -> str:
    return _env("GS_EMPTY_WALLET_KEY")


@pytest.fixture(scope="session")
def rate_limited_key() -> str:
    return _env("GS_RATE_LIMITED_KEY")


@pytest.fixture(scope="session")
def receiver_tls() -> tuple[str, str]:
    """(certificate file, key file) of the receiver certificate the stack trusts."""
    return _env("GS_RECEIVER_CERT_FILE"), _env("GS_RECEIVER_KEY_FILE")


@pytest.fixture()
def client(base_url: str, api_key: str) -> Iterator[Client]:
    with Client(api_key, base_url) as c:
        yield c

"""The synchronous client: ``Client(api_key, base_url)`` with one attribute per resource.

A thin layer over httpx and the generated models (generation_service/_generated): it adds what
the generated functions leave to the caller (idempotency keys, retries, typed errors, waiting,
pagination). The async twin is async_client.py; the rules both follow are in _core.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

import httpx

from . import _core
from ._generated.models.balance import Balance
from ._generated.models.chat_completion import ChatCompletion
from ._generated.models.comparison import Comparison
from ._generated.models.generation import Generation
from ._generated.models.webhook_with_secret import WebhookWithSecret
from .errors import APIConnectionError, WaitTimeoutError, error_from_response


class Client:
    """Talks to the service with one API key. Use as a context manager, or call ``close()``."""

    def __init__(
        self,
        api_key: str,
        base_url: str = _core.DEFAULT_BASE_URL,
        *,
        max_retries: int = _core.DEFAULT_MAX_RETRIES,
        timeout: float = 120.0,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self._http = http_client or httpx.Client(timeout=timeout)
        for name, path in _core.MODALITY_PATHS.items():
            setattr(self, name, Modality(self, path))
        self.images: Modality
        self.videos: Modality
        self.voice: Modality
        self.music: Modality
        self.avatars: Modality
        self.chat: Modality
        self.three_d: Modality
        self.upscale: Modality
        self.generations = Generations(self)
        self.comparisons = Comparisons(self)
        self.webhooks = Webhooks(self)
        self.balance = BalanceResource(self)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None, idempotency_key: str | None = None) -> Any:
        """One API call with the client's retry rule; returns the parsed JSON body or raises a typed error."""
        headers = _core.request_headers(self.api_key, method, idempotency_key)
        query = {k: v for k, v in (params or {}).items() if v is not None}
        attempt = 0
        while True:
            try:
                response = self._http.request(method, self.base_url + path, json=json, params=query, headers=headers)
            except httpx.TransportError as err:
                delay = _core.retry_delay(attempt, None)
                if attempt >= self.max_retries or delay is None:
                    raise APIConnectionError(f"{method} {path}: {err}") from err
            else:
                if response.is_success:
                    return response.json() if response.content else None
                delay = _core.retry_delay(attempt, response)
                if attempt >= self.max_retries or delay is None:
                    raise error_from_response(response)
            time.sleep(delay)
            attempt += 1


class Modality:
    """``client.images``, ``client.videos``, ...: ``create`` answers the finished generation, or a running one to ``wait`` for."""

    def __init__(self, client: Client, path: str) -> None:
        self._client = client
        self._path = path

    def create(self, body: Any = None, /, *, idempotency_key: str | None = None, **params: Any) -> Generation | ChatCompletion:
        data = self._client.request("POST", self._path, json=_core.body_of(body, params), idempotency_key=idempotency_key)
        return _core.parse_generation(data)


class Generations:
    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, generation_id: str) -> Generation | ChatCompletion:
        return _core.parse_generation(self._client.request("GET", f"/v1/generations/{generation_id}"))

    def cancel(self, generation_id: str) -> Generation | ChatCompletion:
        return _core.parse_generation(self._client.request("POST", f"/v1/generations/{generation_id}/cancel"))

    def wait(self, generation_id: str, timeout: float = 600.0) -> Generation | ChatCompletion:
        """Polls with a growing interval until the generation is succeeded, failed or canceled; WaitTimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        for delay in _core.poll_delays():
            current = self.get(generation_id)
            if str(current.status) in _core.GENERATION_TERMINAL:
                return current
            if time.monotonic() + delay > deadline:
                raise WaitTimeoutError(f"generation {generation_id} still {current.status} after {timeout} s", current)
            time.sleep(delay)
        raise AssertionError("unreachable")

    def list(self, *, modality: str | None = None, status: str | None = None, page_size: int | None = None) -> Iterator[Generation]:
        """Every generation, newest first, fetched a page at a time as the iteration reaches it."""
        for item in _pages(self._client, "/v1/generations", {"modality": modality, "status": status, "limit": page_size}):
            yield Generation.from_dict(item)


class Comparisons:
    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, body: Any = None, /, *, idempotency_key: str | None = None, **params: Any) -> Comparison:
        return _core.parse_comparison(self._client.request("POST", "/v1/comparisons", json=_core.body_of(body, params), idempotency_key=idempotency_key))

    def get(self, comparison_id: str) -> Comparison:
        return _core.parse_comparison(self._client.request("GET", f"/v1/comparisons/{comparison_id}"))

    def cancel(self, comparison_id: str) -> Comparison:
        return _core.parse_comparison(self._client.request("POST", f"/v1/comparisons/{comparison_id}/cancel"))

    def wait(self, comparison_id: str, timeout: float = 600.0) -> Comparison:
        """Polls until the comparison has its verdict (succeeded, partial or failed)."""
        deadline = time.monotonic() + timeout
        for delay in _core.poll_delays():
            current = self.get(comparison_id)
            if str(current.status) in _core.COMPARISON_TERMINAL:
                return current
            if time.monotonic() + delay > deadline:
                raise WaitTimeoutError(f"comparison {comparison_id} still {current.status} after {timeout} s", current)
            time.sleep(delay)
        raise AssertionError("unreachable")

    def list(self, *, page_size: int | None = None) -> Iterator[Comparison]:
        for item in _pages(self._client, "/v1/comparisons", {"limit": page_size}):
            yield Comparison.from_dict(item)


class Webhooks:
    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, url: str, events: Sequence[str], description: str | None = None) -> WebhookWithSecret:
        """Subscribes ``url``; the answer's ``secret`` (shown once) is what ``verify_webhook`` needs."""
        body = _core.body_of(None, {"url": url, "events": list(events), "description": description})
        return WebhookWithSecret.from_dict(self._client.request("POST", "/v1/webhooks", json=body))

    def delete(self, webhook_id: str) -> None:
        self._client.request("DELETE", f"/v1/webhooks/{webhook_id}")


class BalanceResource:
    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self) -> Balance:
        return Balance.from_dict(self._client.request("GET", "/v1/balance"))


def _pages(client: Client, path: str, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    starting_after: str | None = None
    while True:
        page = client.request("GET", path, params={**params, "starting_after": starting_after})
        yield from page["data"]
        if not page["has_more"] or not page["data"]:
            return
        starting_after = page["data"][-1]["id"]

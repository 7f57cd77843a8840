"""The asyncio client: ``AsyncClient(api_key, base_url)``, the twin of client.py with awaitable calls.

Same resources and rules (_core.py); pagination is an async iterator
(``async for g in client.generations.list(modality="image")``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from . import _core
from ._generated.models.balance import Balance
from ._generated.models.chat_completion import ChatCompletion
from ._generated.models.comparison import Comparison
from ._generated.models.generation import Generation
from ._generated.models.webhook_with_secret import WebhookWithSecret
from .errors import APIConnectionError, WaitTimeoutError, error_from_response


class AsyncClient:
    """Talks to the service with one API key. Use as ``async with``, or ``await client.aclose()``."""

    def __init__(
        self,
        api_key: str,
        base_url: str = _core.DEFAULT_BASE_URL,
        *,
        max_retries: int = _core.DEFAULT_MAX_RETRIES,
        timeout: float = 120.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        for name, path in _core.MODALITY_PATHS.items():
            setattr(self, name, AsyncModality(self, path))
        self.images: AsyncModality
        self.videos: AsyncModality
        self.voice: AsyncModality
        self.music: AsyncModality
        self.avatars: AsyncModality
        self.chat: AsyncModality
        self.three_d: AsyncModality
        self.upscale: AsyncModality
        self.generations = AsyncGenerations(self)
        self.comparisons = AsyncComparisons(self)
        self.webhooks = AsyncWebhooks(self)
        self.balance = AsyncBalanceResource(self)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None, idempotency_key: str | None = None) -> Any:
        """One API call with the client's retry rule; returns the parsed JSON body or raises a typed error."""
        headers = _core.request_headers(self.api_key, method, idempotency_key)
        query = {k: v for k, v in (params or {}).items() if v is not None}
        attempt = 0
        while True:
            try:
                response = await self._http.request(method, self.base_url + path, json=json, params=query, headers=headers)
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
            await asyncio.sleep(delay)
            attempt += 1


class AsyncModality:
    def __init__(self, client: AsyncClient, path: str) -> None:
        self._client = client
        self._path = path

    async def create(self, body: Any = None, /, *, idempotency_key: str | None = None, **params: Any) -> Generation | ChatCompletion:
        data = await self._client.request("POST", self._path, json=_core.body_of(body, params), idempotency_key=idempotency_key)
        return _core.parse_generation(data)


class AsyncGenerations:
    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, generation_id: str) -> Generation | ChatCompletion:
        return _core.parse_generation(await self._client.request("GET", f"/v1/generations/{generation_id}"))

    async def cancel(self, generation_id: str) -> Generation | ChatCompletion:
        return _core.parse_generation(await self._client.request("POST", f"/v1/generations/{generation_id}/cancel"))

    async def wait(self, generation_id: str, timeout: float = 600.0) -> Generation | ChatCompletion:
        deadline = time.monotonic() + timeout
        for delay in _core.poll_delays():
            current = await self.get(generation_id)
            if str(current.status) in _core.GENERATION_TERMINAL:
                return current
            if time.monotonic() + delay > deadline:
                raise WaitTimeoutError(f"generation {generation_id} still {current.status} after {timeout} s", current)
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def list(self, *, modality: str | None = None, status: str | None = None, page_size: int | None = None) -> AsyncIterator[Generation]:
        async for item in _pages(self._client, "/v1/generations", {"modality": modality, "status": status, "limit": page_size}):
            yield Generation.from_dict(item)


class AsyncComparisons:
    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, body: Any = None, /, *, idempotency_key: str | None = None, **params: Any) -> Comparison:
        data = await self._client.request("POST", "/v1/comparisons", json=_core.body_of(body, params), idempotency_key=idempotency_key)
        return _core.parse_comparison(data)

    async def get(self, comparison_id: str) -> Comparison:
        return _core.parse_comparison(await self._client.request("GET", f"/v1/comparisons/{comparison_id}"))

    async def cancel(self, comparison_id: str) -> Comparison:
        return _core.parse_comparison(await self._client.request("POST", f"/v1/comparisons/{comparison_id}/cancel"))

    async def wait(self, comparison_id: str, timeout: float = 600.0) -> Comparison:
        deadline = time.monotonic() + timeout
        for delay in _core.poll_delays():
            current = await self.get(comparison_id)
            if str(current.status) in _core.COMPARISON_TERMINAL:
                return current
            if time.monotonic() + delay > deadline:
                raise WaitTimeoutError(f"comparison {comparison_id} still {current.status} after {timeout} s", current)
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def list(self, *, page_size: int | None = None) -> AsyncIterator[Comparison]:
        async for item in _pages(self._client, "/v1/comparisons", {"limit": page_size}):
            yield Comparison.from_dict(item)


class AsyncWebhooks:
    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, url: str, events: Sequence[str], description: str | None = None) -> WebhookWithSecret:
        body = _core.body_of(None, {"url": url, "events": list(events), "description": description})
        return WebhookWithSecret.from_dict(await self._client.request("POST", "/v1/webhooks", json=body))

    async def delete(self, webhook_id: str) -> None:
        await self._client.request("DELETE", f"/v1/webhooks/{webhook_id}")


class AsyncBalanceResource:
    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self) -> Balance:
        return Balance.from_dict(await self._client.request("GET", "/v1/balance"))


async def _pages(client: AsyncClient, path: str, params: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    starting_after: str | None = None
    while True:
        page = await client.request("GET", path, params={**params, "starting_after": starting_after})
        for item in page["data"]:
            yield item
        if not page["has_more"] or not page["data"]:
            return
        starting_after = page["data"][-1]["id"]

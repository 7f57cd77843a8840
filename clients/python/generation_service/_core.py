"""What the sync and async clients share: headers, the retry rule, parsing, the polling schedule.

Kept free of I/O so both clients follow the same rules: a POST always carries an Idempotency-Key
(a uuid4 unless the caller gave one) and every retry of it resends that same key, so a retried
request is never charged twice; 429 and 503 answers and connection failures are retried after
``Retry-After`` (or an exponential backoff when absent).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import httpx

from ._generated.models.chat_completion import ChatCompletion
from ._generated.models.comparison import Comparison
from ._generated.models.generation import Generation
from .errors import retry_after_seconds

DEFAULT_BASE_URL = "http://localhost:3000"
DEFAULT_MAX_RETRIES = 2
#: A Retry-After longer than this is not waited out: the error is raised for the caller to decide.
MAX_RETRY_AFTER_SECONDS = 60.0
RETRY_STATUSES = frozenset({429, 503})
GENERATION_TERMINAL = frozenset({"succeeded", "failed", "canceled"})
COMPARISON_TERMINAL = frozenset({"succeeded", "partial", "failed", "canceled"})

#: The create endpoint of each modality (the attribute name on the client -> path).
MODALITY_PATHS: Mapping[str, str] = {
    "images": "/v1/images",
    "videos": "/v1/videos",
    "voice": "/v1/voice",
    "music": "/v1/music",
    "avatars": "/v1/avatars",
    "chat": "/v1/chat",
    "three_d": "/v1/three-d",
    "upscale": "/v1/upscale",
}


def request_headers(api_key: str, method: str, idempotency_key: str | None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
    return headers


def retry_delay(attempt: int, response: httpx.Response | None) -> float | None:
    """Seconds to wait before retry number ``attempt + 1``, or None when this answer is not retried."""
    if response is not None:
        if response.status_code not in RETRY_STATUSES:
            return None
        after = retry_after_seconds(response)
        if after is not None:
            return after if after <= MAX_RETRY_AFTER_SECONDS else None
    return min(8.0, 0.5 * 2.0**attempt) * (0.75 + random.random() / 2)


def poll_delays(initial: float = 0.25, factor: float = 1.5, cap: float = 5.0) -> Iterator[float]:
    """The waits between polls of ``wait``: short at first (most jobs finish quickly), growing to ``cap``."""
    delay = initial
    while True:
        yield delay
        delay = min(cap, delay * factor)


def body_of(body: Any, params: Mapping[str, Any]) -> dict[str, Any]:
    """A request body from a generated body model (anything with ``to_dict``), a dict, and/or keyword parameters."""
    merged: dict[str, Any] = {}
    if body is not None:
        merged.update(body.to_dict() if hasattr(body, "to_dict") else dict(body))
    merged.update({k: v for k, v in params.items() if v is not None})
    return merged


def parse_generation(data: Mapping[str, Any]) -> Generation | ChatCompletion:
    """A create or get answer: a finished chat is a ChatCompletion, everything else a Generation."""
    if data.get("object") == "chat.completion":
        return ChatCompletion.from_dict(data)
    return Generation.from_dict(data)


def parse_comparison(data: Mapping[str, Any]) -> Comparison:
    return Comparison.from_dict(data)

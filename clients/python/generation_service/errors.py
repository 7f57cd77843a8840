"""Typed exceptions for the service's error answers (docs/api.md, "Errors").

Every error body is ``{"error": {"type", "code", "message", "param"?, "request_id"}}``; the class is
chosen by ``type`` (and by status where one type covers several answers), so callers can catch
``RateLimitError`` or ``BillingError`` without reading codes, and still read ``code`` when they need
the precise reason.
"""

from __future__ import annotations

from typing import Any

import httpx


class GenerationServiceError(Exception):
    """The base of every exception this client raises."""


class APIConnectionError(GenerationServiceError):
    """The request never got an HTTP answer (connection refused, reset, timed out)."""


class WaitTimeoutError(GenerationServiceError, TimeoutError):
    """``wait`` gave up before the generation or comparison became terminal; ``last`` is the newest state seen."""

    def __init__(self, message: str, last: Any) -> None:
        super().__init__(message)
        self.last = last


class WebhookVerificationError(GenerationServiceError):
    """A webhook delivery whose signature header is missing, malformed, too old, or matches no secret."""


class APIError(GenerationServiceError):
    """An HTTP error answer from the service."""

    def __init__(
        self,
        *,
        status: int,
        type: str,
        code: str,
        message: str,
        param: str | None,
        request_id: str | None,
        retry_after: float | None,
        body: Any,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" (param {param})" if param else "") + (f" [request {request_id}]" if request_id else ""))
        self.status = status
        self.type = type
        self.code = code
        self.message = message
        self.param = param
        self.request_id = request_id
        self.retry_after = retry_after
        self.body = body


class InvalidRequestError(APIError):
    """``invalid_request_error``: the request cannot succeed as sent (400, 404, 409, 413, 415, 422)."""


class NotFoundError(InvalidRequestError):
    """404 ``resource_not_found``."""


class ConflictError(InvalidRequestError):
    """409: not cancelable, already exists, an idempotent request still in progress."""


class AuthenticationError(APIError):
    """401: the API key is missing, malformed or unknown."""


class BillingError(APIError):
    """402: insufficient credits, a budget reached, or a plan that does not include the model."""


class PermissionDeniedError(APIError):
    """403: the key's role, scopes or IP allowlist, or a paused organization."""


class RateLimitError(APIError):
    """429: over the key's per-minute limit; ``retry_after`` says when to try again."""


class ServerError(APIError):
    """5xx ``api_error``: an internal error, or the service or every provider unavailable (503)."""


class ServiceUnavailableError(ServerError):
    """503: retried automatically with the same idempotency key; raised once retries are spent."""


_BY_TYPE: dict[str, type[APIError]] = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "billing_error": BillingError,
    "permission_error": PermissionDeniedError,
    "rate_limit_error": RateLimitError,
    "api_error": ServerError,
}


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (the service sends delta-seconds), or None when absent or unreadable."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def error_from_response(response: httpx.Response) -> APIError:
    """The typed exception for a non-2xx answer; a body that is not the documented shape still gives an APIError."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    detail = body.get("error") if isinstance(body, dict) else None
    if not isinstance(detail, dict):
        detail = {}
    error_type = str(detail.get("type", "api_error"))
    cls = _BY_TYPE.get(error_type, APIError)
    if cls is InvalidRequestError and response.status_code == 404:
        cls = NotFoundError
    elif cls is InvalidRequestError and response.status_code == 409:
        cls = ConflictError
    elif cls is ServerError and response.status_code == 503:
        cls = ServiceUnavailableError
    return cls(
        status=response.status_code,
        type=error_type,
        code=str(detail.get("code", f"http_{response.status_code}")),
        message=str(detail.get("message", response.reason_phrase)),
        param=detail.get("param"),
        request_id=detail.get("request_id") or response.headers.get("x-request-id"),
        retry_after=retry_after_seconds(response),
        body=body,
    )

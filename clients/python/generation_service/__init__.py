"""The multi-model generation service's Python client.

``Client`` / ``AsyncClient`` are the hand-written layer; the typed models and per-operation
functions generated from openapi.json are in ``generation_service._generated``
(``generation_service.models`` re-exports the models).
"""

from . import models
from .async_client import AsyncClient
from .client import Client
from .errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    BillingError,
    ConflictError,
    GenerationServiceError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    WaitTimeoutError,
    WebhookVerificationError,
)
from .webhooks import SIGNATURE_HEADER, STANDARD_HEADERS, verify_standard_webhook, verify_webhook

__all__ = [
    "APIConnectionError",
    "APIError",
    "AsyncClient",
    "AuthenticationError",
    "BillingError",
    "Client",
    "ConflictError",
    "GenerationServiceError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "SIGNATURE_HEADER",
    "STANDARD_HEADERS",
    "ServerError",
    "ServiceUnavailableError",
    "WaitTimeoutError",
    "WebhookVerificationError",
    "models",
    "verify_standard_webhook",
    "verify_webhook",
]

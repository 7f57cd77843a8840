from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_ai_chat_completion_body import OpenAiChatCompletionBody
from ...models.open_ai_chat_completion_response_200 import (
    OpenAiChatCompletionResponse200,
)
from ...models.open_ai_generation_failed_error import OpenAiGenerationFailedError
from ...models.open_ai_generation_still_running_error import (
    OpenAiGenerationStillRunningError,
)
from ...models.open_ai_idempotency_in_progress_or_generation_canceled_error import (
    OpenAiIdempotencyInProgressOrGenerationCanceledError,
)
from ...models.open_ai_idempotency_key_reused_error import (
    OpenAiIdempotencyKeyReusedError,
)
from ...models.open_ai_internal_error_error import OpenAiInternalErrorError
from ...models.open_ai_ip_not_allowed_or_insufficient_role_or_organization_paused_error import (
    OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError,
)
from ...models.open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.open_ai_payload_too_large_error import OpenAiPayloadTooLargeError
from ...models.open_ai_rate_limited_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error import (
    OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError,
)
from ...models.open_ai_service_unavailable_or_provider_unavailable_error import (
    OpenAiServiceUnavailableOrProviderUnavailableError,
)
from ...models.open_ai_unknown_model_or_modality_mismatch_or_plan_upgrade_required_error import (
    OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError,
)
from ...models.open_ai_unsupported_media_type_error import (
    OpenAiUnsupportedMediaTypeError,
)
from ...models.open_ai_validation_failed_or_capability_not_supported_error import (
    OpenAiValidationFailedOrCapabilityNotSupportedError,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: OpenAiChatCompletionBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(cancel_after, Unset):
        headers["Cancel-After"] = cancel_after

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/openai/chat/completions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
    | None
):
    if response.status_code == 200:
        response_200 = OpenAiChatCompletionResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = OpenAiValidationFailedOrCapabilityNotSupportedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = OpenAiIdempotencyInProgressOrGenerationCanceledError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = OpenAiPayloadTooLargeError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = OpenAiUnsupportedMediaTypeError.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = OpenAiIdempotencyKeyReusedError.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError.from_dict(
            response.json()
        )

        return response_429

    if response.status_code == 500:
        response_500 = OpenAiInternalErrorError.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = OpenAiGenerationFailedError.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = OpenAiServiceUnavailableOrProviderUnavailableError.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = OpenAiGenerationStillRunningError.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OpenAiChatCompletionBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> Response[
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
]:
    """Create a chat completion (OpenAI’s protocol)

     OpenAI’s chat request and `chat.completion` answer, for the official OpenAI SDKs (base URL
    `/v1/openai`). Runs exactly as POST /v1/chat: reserved on max_tokens, charged on the tokens
    produced. Refused with 400, by name: `stream: true`, `n` > 1, `stop`, `seed`, `top_p` other than 1.
    Errors are in OpenAI’s shape; an unknown model is 404, no credits or budget left is 429
    `insufficient_quota`. A chat that fails is 502 `generation_failed` (refunded); one still running
    when the sync window closes is 504 `generation_still_running` (it goes on: read GET
    /v1/generations/{id}).

    Needs a key with the `chat:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (OpenAiChatCompletionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAiChatCompletionResponse200 | OpenAiGenerationFailedError | OpenAiGenerationStillRunningError | OpenAiIdempotencyInProgressOrGenerationCanceledError | OpenAiIdempotencyKeyReusedError | OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | OpenAiServiceUnavailableOrProviderUnavailableError | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedOrCapabilityNotSupportedError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        cancel_after=cancel_after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: OpenAiChatCompletionBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> (
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
    | None
):
    """Create a chat completion (OpenAI’s protocol)

     OpenAI’s chat request and `chat.completion` answer, for the official OpenAI SDKs (base URL
    `/v1/openai`). Runs exactly as POST /v1/chat: reserved on max_tokens, charged on the tokens
    produced. Refused with 400, by name: `stream: true`, `n` > 1, `stop`, `seed`, `top_p` other than 1.
    Errors are in OpenAI’s shape; an unknown model is 404, no credits or budget left is 429
    `insufficient_quota`. A chat that fails is 502 `generation_failed` (refunded); one still running
    when the sync window closes is 504 `generation_still_running` (it goes on: read GET
    /v1/generations/{id}).

    Needs a key with the `chat:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (OpenAiChatCompletionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAiChatCompletionResponse200 | OpenAiGenerationFailedError | OpenAiGenerationStillRunningError | OpenAiIdempotencyInProgressOrGenerationCanceledError | OpenAiIdempotencyKeyReusedError | OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | OpenAiServiceUnavailableOrProviderUnavailableError | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedOrCapabilityNotSupportedError
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        cancel_after=cancel_after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OpenAiChatCompletionBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> Response[
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
]:
    """Create a chat completion (OpenAI’s protocol)

     OpenAI’s chat request and `chat.completion` answer, for the official OpenAI SDKs (base URL
    `/v1/openai`). Runs exactly as POST /v1/chat: reserved on max_tokens, charged on the tokens
    produced. Refused with 400, by name: `stream: true`, `n` > 1, `stop`, `seed`, `top_p` other than 1.
    Errors are in OpenAI’s shape; an unknown model is 404, no credits or budget left is 429
    `insufficient_quota`. A chat that fails is 502 `generation_failed` (refunded); one still running
    when the sync window closes is 504 `generation_still_running` (it goes on: read GET
    /v1/generations/{id}).

    Needs a key with the `chat:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (OpenAiChatCompletionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAiChatCompletionResponse200 | OpenAiGenerationFailedError | OpenAiGenerationStillRunningError | OpenAiIdempotencyInProgressOrGenerationCanceledError | OpenAiIdempotencyKeyReusedError | OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | OpenAiServiceUnavailableOrProviderUnavailableError | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedOrCapabilityNotSupportedError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        cancel_after=cancel_after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: OpenAiChatCompletionBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> (
    OpenAiChatCompletionResponse200
    | OpenAiGenerationFailedError
    | OpenAiGenerationStillRunningError
    | OpenAiIdempotencyInProgressOrGenerationCanceledError
    | OpenAiIdempotencyKeyReusedError
    | OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | OpenAiServiceUnavailableOrProviderUnavailableError
    | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedOrCapabilityNotSupportedError
    | None
):
    """Create a chat completion (OpenAI’s protocol)

     OpenAI’s chat request and `chat.completion` answer, for the official OpenAI SDKs (base URL
    `/v1/openai`). Runs exactly as POST /v1/chat: reserved on max_tokens, charged on the tokens
    produced. Refused with 400, by name: `stream: true`, `n` > 1, `stop`, `seed`, `top_p` other than 1.
    Errors are in OpenAI’s shape; an unknown model is 404, no credits or budget left is 429
    `insufficient_quota`. A chat that fails is 502 `generation_failed` (refunded); one still running
    when the sync window closes is 504 `generation_still_running` (it goes on: read GET
    /v1/generations/{id}).

    Needs a key with the `chat:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (OpenAiChatCompletionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAiChatCompletionResponse200 | OpenAiGenerationFailedError | OpenAiGenerationStillRunningError | OpenAiIdempotencyInProgressOrGenerationCanceledError | OpenAiIdempotencyKeyReusedError | OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | OpenAiServiceUnavailableOrProviderUnavailableError | OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedOrCapabilityNotSupportedError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            cancel_after=cancel_after,
        )
    ).parsed

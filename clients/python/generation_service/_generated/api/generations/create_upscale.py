from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_upscale_body import CreateUpscaleBody
from ...models.generation import Generation
from ...models.idempotency_in_progress_error import IdempotencyInProgressError
from ...models.idempotency_key_reused_error import IdempotencyKeyReusedError
from ...models.internal_error_error import InternalErrorError
from ...models.ip_not_allowed_or_insufficient_role_or_organization_paused_error import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedError,
)
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.plan_upgrade_required_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error import (
    PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError,
)
from ...models.rate_limited_error import RateLimitedError
from ...models.service_unavailable_or_provider_unavailable_error import (
    ServiceUnavailableOrProviderUnavailableError,
)
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_or_unknown_model_or_modality_mismatch_or_capability_not_supported_error import (
    ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateUpscaleBody,
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
        "url": "/v1/upscale",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    if response.status_code == 202:
        response_202 = Generation.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError.from_dict(
            response.json()
        )

        return response_400

    if response.status_code == 401:
        response_401 = MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError.from_dict(
            response.json()
        )

        return response_402

    if response.status_code == 403:
        response_403 = IpNotAllowedOrInsufficientRoleOrOrganizationPausedError.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = IdempotencyInProgressError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = PayloadTooLargeError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = UnsupportedMediaTypeError.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = IdempotencyKeyReusedError.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = RateLimitedError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = InternalErrorError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ServiceUnavailableOrProviderUnavailableError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
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
    body: CreateUpscaleBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> Response[
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
]:
    """Upscale an image or a video

     Asynchronous: always answers 202. Credits are reserved on admission, then charged for what was
    produced; a failed or cancelled job is refunded.

    Needs a key with the `upscale:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (CreateUpscaleBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Generation | IdempotencyInProgressError | IdempotencyKeyReusedError | InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError]
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
    body: CreateUpscaleBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> (
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    """Upscale an image or a video

     Asynchronous: always answers 202. Credits are reserved on admission, then charged for what was
    produced; a failed or cancelled job is refunded.

    Needs a key with the `upscale:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (CreateUpscaleBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Generation | IdempotencyInProgressError | IdempotencyKeyReusedError | InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
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
    body: CreateUpscaleBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> Response[
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
]:
    """Upscale an image or a video

     Asynchronous: always answers 202. Credits are reserved on admission, then charged for what was
    produced; a failed or cancelled job is refunded.

    Needs a key with the `upscale:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (CreateUpscaleBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Generation | IdempotencyInProgressError | IdempotencyKeyReusedError | InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError]
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
    body: CreateUpscaleBody,
    idempotency_key: str | Unset = UNSET,
    cancel_after: str | Unset = UNSET,
) -> (
    Generation
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    """Upscale an image or a video

     Asynchronous: always answers 202. Credits are reserved on admission, then charged for what was
    produced; a failed or cancelled job is refunded.

    Needs a key with the `upscale:write` scope and the developer role or higher. Spends credits.

    Args:
        idempotency_key (str | Unset):
        cancel_after (str | Unset):
        body (CreateUpscaleBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Generation | IdempotencyInProgressError | IdempotencyKeyReusedError | InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            cancel_after=cancel_after,
        )
    ).parsed

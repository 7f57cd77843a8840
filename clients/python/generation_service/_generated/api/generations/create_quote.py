from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_quote_body import CreateQuoteBody
from ...models.internal_error_error import InternalErrorError
from ...models.ip_not_allowed_or_insufficient_role_or_organization_paused_error import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedError,
)
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.plan_upgrade_required_or_budget_exceeded_or_max_cost_exceeded_error import (
    PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError,
)
from ...models.quote import Quote
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
    body: CreateQuoteBody,
    cancel_after: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(cancel_after, Unset):
        headers["Cancel-After"] = cancel_after

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/quotes",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    if response.status_code == 200:
        response_200 = Quote.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError.from_dict(
            response.json()
        )

        return response_400

    if response.status_code == 401:
        response_401 = MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = IpNotAllowedOrInsufficientRoleOrOrganizationPausedError.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = PayloadTooLargeError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = UnsupportedMediaTypeError.from_dict(response.json())

        return response_415

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
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
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
    body: CreateQuoteBody,
    cancel_after: str | Unset = UNSET,
) -> Response[
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
]:
    """Quote a creation request

     A dry run: runs every check the creation endpoint named by `endpoint` would run on `body` (the key’s
    role and scope for that endpoint, `retention`, validation, plan and Studio+ gates, model limits,
    input files, the quote request’s own `Cancel-After`, `max_credits`, the key’s monthly budget) and
    answers the exact reservation it would make, per generation, with the pricing inputs. Reserves
    nothing and creates nothing. A wallet that does not cover it is not an error: `affordable` says so.

    Needs any key and the viewer role or higher.

    Args:
        cancel_after (str | Unset):
        body (CreateQuoteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError | Quote | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError]
    """

    kwargs = _get_kwargs(
        body=body,
        cancel_after=cancel_after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateQuoteBody,
    cancel_after: str | Unset = UNSET,
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    """Quote a creation request

     A dry run: runs every check the creation endpoint named by `endpoint` would run on `body` (the key’s
    role and scope for that endpoint, `retention`, validation, plan and Studio+ gates, model limits,
    input files, the quote request’s own `Cancel-After`, `max_credits`, the key’s monthly budget) and
    answers the exact reservation it would make, per generation, with the pricing inputs. Reserves
    nothing and creates nothing. A wallet that does not cover it is not an error: `affordable` says so.

    Needs any key and the viewer role or higher.

    Args:
        cancel_after (str | Unset):
        body (CreateQuoteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError | Quote | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    """

    return sync_detailed(
        client=client,
        body=body,
        cancel_after=cancel_after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateQuoteBody,
    cancel_after: str | Unset = UNSET,
) -> Response[
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
]:
    """Quote a creation request

     A dry run: runs every check the creation endpoint named by `endpoint` would run on `body` (the key’s
    role and scope for that endpoint, `retention`, validation, plan and Studio+ gates, model limits,
    input files, the quote request’s own `Cancel-After`, `max_credits`, the key’s monthly budget) and
    answers the exact reservation it would make, per generation, with the pricing inputs. Reserves
    nothing and creates nothing. A wallet that does not cover it is not an error: `affordable` says so.

    Needs any key and the viewer role or higher.

    Args:
        cancel_after (str | Unset):
        body (CreateQuoteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError | Quote | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError]
    """

    kwargs = _get_kwargs(
        body=body,
        cancel_after=cancel_after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateQuoteBody,
    cancel_after: str | Unset = UNSET,
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError
    | Quote
    | RateLimitedError
    | ServiceUnavailableOrProviderUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    | None
):
    """Quote a creation request

     A dry run: runs every check the creation endpoint named by `endpoint` would run on `body` (the key’s
    role and scope for that endpoint, `retention`, validation, plan and Studio+ gates, model limits,
    input files, the quote request’s own `Cancel-After`, `max_credits`, the key’s monthly budget) and
    answers the exact reservation it would make, per generation, with the pricing inputs. Reserves
    nothing and creates nothing. A wallet that does not cover it is not an error: `affordable` says so.

    Needs any key and the viewer role or higher.

    Args:
        cancel_after (str | Unset):
        body (CreateQuoteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | IpNotAllowedOrInsufficientRoleOrOrganizationPausedError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError | Quote | RateLimitedError | ServiceUnavailableOrProviderUnavailableError | UnsupportedMediaTypeError | ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            cancel_after=cancel_after,
        )
    ).parsed

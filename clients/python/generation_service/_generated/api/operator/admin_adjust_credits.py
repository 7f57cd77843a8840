from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_adjust_credits_body import AdminAdjustCreditsBody
from ...models.credit_adjustment import CreditAdjustment
from ...models.idempotency_in_progress_error import IdempotencyInProgressError
from ...models.idempotency_key_reused_error import IdempotencyKeyReusedError
from ...models.insufficient_credits_error import InsufficientCreditsError
from ...models.internal_error_error import InternalErrorError
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.resource_not_found_error import ResourceNotFoundError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: AdminAdjustCreditsBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/organizations/{id}/credits".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = CreditAdjustment.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationFailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = InsufficientCreditsError.from_dict(response.json())

        return response_402

    if response.status_code == 404:
        response_404 = ResourceNotFoundError.from_dict(response.json())

        return response_404

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

    if response.status_code == 500:
        response_500 = InternalErrorError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ServiceUnavailableError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminAdjustCreditsBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Grant or deduct credits

     One ledger row with its reason; a deduction never takes the wallet below zero.

    Operator API: needs the admin token.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AdminAdjustCreditsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditAdjustment | IdempotencyInProgressError | IdempotencyKeyReusedError | InsufficientCreditsError | InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminAdjustCreditsBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Grant or deduct credits

     One ledger row with its reason; a deduction never takes the wallet below zero.

    Operator API: needs the admin token.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AdminAdjustCreditsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditAdjustment | IdempotencyInProgressError | IdempotencyKeyReusedError | InsufficientCreditsError | InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminAdjustCreditsBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Grant or deduct credits

     One ledger row with its reason; a deduction never takes the wallet below zero.

    Operator API: needs the admin token.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AdminAdjustCreditsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditAdjustment | IdempotencyInProgressError | IdempotencyKeyReusedError | InsufficientCreditsError | InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminAdjustCreditsBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    CreditAdjustment
    | IdempotencyInProgressError
    | IdempotencyKeyReusedError
    | InsufficientCreditsError
    | InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Grant or deduct credits

     One ledger row with its reason; a deduction never takes the wallet below zero.

    Operator API: needs the admin token.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AdminAdjustCreditsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditAdjustment | IdempotencyInProgressError | IdempotencyKeyReusedError | InsufficientCreditsError | InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.current_api_key import CurrentApiKey
from ...models.internal_error_error import InternalErrorError
from ...models.ip_not_allowed_or_insufficient_role_error import (
    IpNotAllowedOrInsufficientRoleError,
)
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.rate_limited_error import RateLimitedError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/api-keys/current",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = CurrentApiKey.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationFailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = IpNotAllowedOrInsufficientRoleError.from_dict(response.json())

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
        response_503 = ServiceUnavailableError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
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
    *,
    client: AuthenticatedClient,
) -> Response[
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Retrieve the calling API key

     Any key may read itself: its environment, effective role, scopes and budget, and its organization’s
    plan. The dashboard signs in with it.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurrentApiKey | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> (
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Retrieve the calling API key

     Any key may read itself: its environment, effective role, scopes and budget, and its organization’s
    plan. The dashboard signs in with it.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurrentApiKey | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Retrieve the calling API key

     Any key may read itself: its environment, effective role, scopes and budget, and its organization’s
    plan. The dashboard signs in with it.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurrentApiKey | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> (
    CurrentApiKey
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Retrieve the calling API key

     Any key may read itself: its environment, effective role, scopes and budget, and its organization’s
    plan. The dashboard signs in with it.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurrentApiKey | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed

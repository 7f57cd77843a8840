from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_ai_internal_error_error import OpenAiInternalErrorError
from ...models.open_ai_ip_not_allowed_or_insufficient_role_error import (
    OpenAiIpNotAllowedOrInsufficientRoleError,
)
from ...models.open_ai_list_models_response_200 import OpenAiListModelsResponse200
from ...models.open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.open_ai_payload_too_large_error import OpenAiPayloadTooLargeError
from ...models.open_ai_rate_limited_error import OpenAiRateLimitedError
from ...models.open_ai_service_unavailable_error import OpenAiServiceUnavailableError
from ...models.open_ai_unsupported_media_type_error import (
    OpenAiUnsupportedMediaTypeError,
)
from ...models.open_ai_validation_failed_error import OpenAiValidationFailedError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/openai/models",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = OpenAiListModelsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = OpenAiValidationFailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = OpenAiIpNotAllowedOrInsufficientRoleError.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = OpenAiPayloadTooLargeError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = OpenAiUnsupportedMediaTypeError.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = OpenAiRateLimitedError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = OpenAiInternalErrorError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = OpenAiServiceUnavailableError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
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
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
]:
    """List the chat models (OpenAI’s protocol)

     The chat models of the catalog as OpenAI model objects. GET /v1/models has their prices and limits.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleError | OpenAiListModelsResponse200 | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedError | OpenAiServiceUnavailableError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedError]
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
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
    | None
):
    """List the chat models (OpenAI’s protocol)

     The chat models of the catalog as OpenAI model objects. GET /v1/models has their prices and limits.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleError | OpenAiListModelsResponse200 | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedError | OpenAiServiceUnavailableError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
]:
    """List the chat models (OpenAI’s protocol)

     The chat models of the catalog as OpenAI model objects. GET /v1/models has their prices and limits.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleError | OpenAiListModelsResponse200 | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedError | OpenAiServiceUnavailableError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> (
    OpenAiInternalErrorError
    | OpenAiIpNotAllowedOrInsufficientRoleError
    | OpenAiListModelsResponse200
    | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | OpenAiPayloadTooLargeError
    | OpenAiRateLimitedError
    | OpenAiServiceUnavailableError
    | OpenAiUnsupportedMediaTypeError
    | OpenAiValidationFailedError
    | None
):
    """List the chat models (OpenAI’s protocol)

     The chat models of the catalog as OpenAI model objects. GET /v1/models has their prices and limits.

    Needs any key and the viewer role or higher.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAiInternalErrorError | OpenAiIpNotAllowedOrInsufficientRoleError | OpenAiListModelsResponse200 | OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | OpenAiPayloadTooLargeError | OpenAiRateLimitedError | OpenAiServiceUnavailableError | OpenAiUnsupportedMediaTypeError | OpenAiValidationFailedError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed

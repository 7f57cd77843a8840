from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.internal_error_error import InternalErrorError
from ...models.openapi_response_200 import OpenapiResponse200
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/openapi.json",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = OpenapiResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationFailedError.from_dict(response.json())

        return response_400

    if response.status_code == 413:
        response_413 = PayloadTooLargeError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = UnsupportedMediaTypeError.from_dict(response.json())

        return response_415

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
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
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
    client: AuthenticatedClient | Client,
) -> Response[
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Get this document

     The OpenAPI 3.1 document of the service, generated from its route table and validation schemas.

    No authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | OpenapiResponse200 | PayloadTooLargeError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> (
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Get this document

     The OpenAPI 3.1 document of the service, generated from its route table and validation schemas.

    No authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | OpenapiResponse200 | PayloadTooLargeError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Get this document

     The OpenAPI 3.1 document of the service, generated from its route table and validation schemas.

    No authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | OpenapiResponse200 | PayloadTooLargeError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> (
    InternalErrorError
    | OpenapiResponse200
    | PayloadTooLargeError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Get this document

     The OpenAPI 3.1 document of the service, generated from its route table and validation schemas.

    No authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | OpenapiResponse200 | PayloadTooLargeError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed

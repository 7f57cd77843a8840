from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.generation import Generation
from ...models.generation_not_finished_error import GenerationNotFinishedError
from ...models.internal_error_error import InternalErrorError
from ...models.ip_not_allowed_or_insufficient_role_error import (
    IpNotAllowedOrInsufficientRoleError,
)
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.rate_limited_error import RateLimitedError
from ...models.resource_not_found_error import ResourceNotFoundError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/generations/{id}/outputs".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = Generation.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ResourceNotFoundError.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = GenerationNotFinishedError.from_dict(response.json())

        return response_409

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
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
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
) -> Response[
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Delete a generation's output files

     Deletes the files of a finished generation at once, as its retention would at `expires_at`. The
    generation record, its charge and its ledger stay; its outputs stay listed with `deleted_at` and
    their URLs answer 410 `output_expired`. Idempotent: a second call finds nothing left and answers the
    same. Also needs the write scope of the generation’s modality.

    Needs a key with the `generations:read` scope and the developer role or higher.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Generation | GenerationNotFinishedError | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> (
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Delete a generation's output files

     Deletes the files of a finished generation at once, as its retention would at `expires_at`. The
    generation record, its charge and its ledger stay; its outputs stay listed with `deleted_at` and
    their URLs answer 410 `output_expired`. Idempotent: a second call finds nothing left and answers the
    same. Also needs the write scope of the generation’s modality.

    Needs a key with the `generations:read` scope and the developer role or higher.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Generation | GenerationNotFinishedError | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Delete a generation's output files

     Deletes the files of a finished generation at once, as its retention would at `expires_at`. The
    generation record, its charge and its ledger stay; its outputs stay listed with `deleted_at` and
    their URLs answer 410 `output_expired`. Idempotent: a second call finds nothing left and answers the
    same. Also needs the write scope of the generation’s modality.

    Needs a key with the `generations:read` scope and the developer role or higher.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Generation | GenerationNotFinishedError | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> (
    Generation
    | GenerationNotFinishedError
    | InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Delete a generation's output files

     Deletes the files of a finished generation at once, as its retention would at `expires_at`. The
    generation record, its charge and its ledger stay; its outputs stay listed with `deleted_at` and
    their URLs answer 410 `output_expired`. Idempotent: a second call finds nothing left and answers the
    same. Also needs the write scope of the generation’s modality.

    Needs a key with the `generations:read` scope and the developer role or higher.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Generation | GenerationNotFinishedError | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed

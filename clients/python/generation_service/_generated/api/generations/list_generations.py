from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.generation_list import GenerationList
from ...models.internal_error_error import InternalErrorError
from ...models.ip_not_allowed_or_insufficient_role_error import (
    IpNotAllowedOrInsufficientRoleError,
)
from ...models.list_generations_modality import ListGenerationsModality
from ...models.list_generations_status import ListGenerationsStatus
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.rate_limited_error import RateLimitedError
from ...models.resource_not_found_error import ResourceNotFoundError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    modality: ListGenerationsModality | Unset = UNSET,
    status: ListGenerationsStatus | Unset = UNSET,
    model: str | Unset = UNSET,
    api_key: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    json_modality: str | Unset = UNSET
    if not isinstance(modality, Unset):
        json_modality = modality.value

    params["modality"] = json_modality

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["model"] = model

    params["api_key"] = api_key

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/generations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    GenerationList
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
        response_200 = GenerationList.from_dict(response.json())

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
    GenerationList
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
    *,
    client: AuthenticatedClient,
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    modality: ListGenerationsModality | Unset = UNSET,
    status: ListGenerationsStatus | Unset = UNSET,
    model: str | Unset = UNSET,
    api_key: str | Unset = UNSET,
) -> Response[
    GenerationList
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
    """List generations

     Newest first, in pages (`limit`, `starting_after`), filtered by modality and status.

    Needs a key with the `generations:read` scope and the viewer role or higher.

    Args:
        limit (str | Unset):
        starting_after (str | Unset):
        modality (ListGenerationsModality | Unset):
        status (ListGenerationsStatus | Unset):
        model (str | Unset): Only generations of this model id (as `GET /v1/models` names it).
        api_key (str | Unset): Only generations created with this API key (its id, `key_…`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GenerationList | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        starting_after=starting_after,
        modality=modality,
        status=status,
        model=model,
        api_key=api_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    modality: ListGenerationsModality | Unset = UNSET,
    status: ListGenerationsStatus | Unset = UNSET,
    model: str | Unset = UNSET,
    api_key: str | Unset = UNSET,
) -> (
    GenerationList
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
    """List generations

     Newest first, in pages (`limit`, `starting_after`), filtered by modality and status.

    Needs a key with the `generations:read` scope and the viewer role or higher.

    Args:
        limit (str | Unset):
        starting_after (str | Unset):
        modality (ListGenerationsModality | Unset):
        status (ListGenerationsStatus | Unset):
        model (str | Unset): Only generations of this model id (as `GET /v1/models` names it).
        api_key (str | Unset): Only generations created with this API key (its id, `key_…`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GenerationList | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        client=client,
        limit=limit,
        starting_after=starting_after,
        modality=modality,
        status=status,
        model=model,
        api_key=api_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    modality: ListGenerationsModality | Unset = UNSET,
    status: ListGenerationsStatus | Unset = UNSET,
    model: str | Unset = UNSET,
    api_key: str | Unset = UNSET,
) -> Response[
    GenerationList
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
    """List generations

     Newest first, in pages (`limit`, `starting_after`), filtered by modality and status.

    Needs a key with the `generations:read` scope and the viewer role or higher.

    Args:
        limit (str | Unset):
        starting_after (str | Unset):
        modality (ListGenerationsModality | Unset):
        status (ListGenerationsStatus | Unset):
        model (str | Unset): Only generations of this model id (as `GET /v1/models` names it).
        api_key (str | Unset): Only generations created with this API key (its id, `key_…`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GenerationList | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        limit=limit,
        starting_after=starting_after,
        modality=modality,
        status=status,
        model=model,
        api_key=api_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    modality: ListGenerationsModality | Unset = UNSET,
    status: ListGenerationsStatus | Unset = UNSET,
    model: str | Unset = UNSET,
    api_key: str | Unset = UNSET,
) -> (
    GenerationList
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
    """List generations

     Newest first, in pages (`limit`, `starting_after`), filtered by modality and status.

    Needs a key with the `generations:read` scope and the viewer role or higher.

    Args:
        limit (str | Unset):
        starting_after (str | Unset):
        modality (ListGenerationsModality | Unset):
        status (ListGenerationsStatus | Unset):
        model (str | Unset): Only generations of this model id (as `GET /v1/models` names it).
        api_key (str | Unset): Only generations created with this API key (its id, `key_…`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GenerationList | InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            starting_after=starting_after,
            modality=modality,
            status=status,
            model=model,
            api_key=api_key,
        )
    ).parsed

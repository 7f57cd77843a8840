from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_update_organization_body import AdminUpdateOrganizationBody
from ...models.internal_error_error import InternalErrorError
from ...models.missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from ...models.organization import Organization
from ...models.payload_too_large_error import PayloadTooLargeError
from ...models.resource_not_found_error import ResourceNotFoundError
from ...models.service_unavailable_error import ServiceUnavailableError
from ...models.unsupported_media_type_error import UnsupportedMediaTypeError
from ...models.validation_failed_error import ValidationFailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: AdminUpdateOrganizationBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/admin/v1/organizations/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = Organization.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationFailedError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ResourceNotFoundError.from_dict(response.json())

        return response_404

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
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
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
    body: AdminUpdateOrganizationBody | Unset = UNSET,
) -> Response[
    InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Update an organization

     Plan, name, Enterprise flag, or pause (a paused organization may read but not spend).

    Operator API: needs the admin token.

    Args:
        id (str):
        body (AdminUpdateOrganizationBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | Organization | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminUpdateOrganizationBody | Unset = UNSET,
) -> (
    InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Update an organization

     Plan, name, Enterprise flag, or pause (a paused organization may read but not spend).

    Operator API: needs the admin token.

    Args:
        id (str):
        body (AdminUpdateOrganizationBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | Organization | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminUpdateOrganizationBody | Unset = UNSET,
) -> Response[
    InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
]:
    """Update an organization

     Plan, name, Enterprise flag, or pause (a paused organization may read but not spend).

    Operator API: needs the admin token.

    Args:
        id (str):
        body (AdminUpdateOrganizationBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | Organization | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AdminUpdateOrganizationBody | Unset = UNSET,
) -> (
    InternalErrorError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | Organization
    | PayloadTooLargeError
    | ResourceNotFoundError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | ValidationFailedError
    | None
):
    """Update an organization

     Plan, name, Enterprise flag, or pause (a paused organization may read but not spend).

    Operator API: needs the admin token.

    Args:
        id (str):
        body (AdminUpdateOrganizationBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | Organization | PayloadTooLargeError | ResourceNotFoundError | ServiceUnavailableError | UnsupportedMediaTypeError | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed

import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_usage_format import GetUsageFormat
from ...models.get_usage_group_by import GetUsageGroupBy
from ...models.get_usage_modality import GetUsageModality
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
from ...models.usage import Usage
from ...models.validation_failed_error import ValidationFailedError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    group_by: GetUsageGroupBy | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    modality: GetUsageModality | Unset = UNSET,
    api_key: str | Unset = UNSET,
    format_: GetUsageFormat | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by.value

    params["group_by"] = json_group_by

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    json_modality: str | Unset = UNSET
    if not isinstance(modality, Unset):
        json_modality = modality.value

    params["modality"] = json_modality

    params["api_key"] = api_key

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/usage",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
    | ValidationFailedError
    | None
):
    if response.status_code == 200:
        response_200 = Usage.from_dict(response.json())

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
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
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
    group_by: GetUsageGroupBy | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    modality: GetUsageModality | Unset = UNSET,
    api_key: str | Unset = UNSET,
    format_: GetUsageFormat | Unset = UNSET,
) -> Response[
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
    | ValidationFailedError
]:
    """Get usage

     Spend over a period, grouped by day, model, modality or key; `format=csv` answers the same rows as
    CSV.

    Needs a key with the `usage:read` scope and the viewer role or higher.

    Args:
        group_by (GetUsageGroupBy | Unset):
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        modality (GetUsageModality | Unset):
        api_key (str | Unset):
        format_ (GetUsageFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | Usage | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        group_by=group_by,
        from_=from_,
        to=to,
        modality=modality,
        api_key=api_key,
        format_=format_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    group_by: GetUsageGroupBy | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    modality: GetUsageModality | Unset = UNSET,
    api_key: str | Unset = UNSET,
    format_: GetUsageFormat | Unset = UNSET,
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
    | ValidationFailedError
    | None
):
    """Get usage

     Spend over a period, grouped by day, model, modality or key; `format=csv` answers the same rows as
    CSV.

    Needs a key with the `usage:read` scope and the viewer role or higher.

    Args:
        group_by (GetUsageGroupBy | Unset):
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        modality (GetUsageModality | Unset):
        api_key (str | Unset):
        format_ (GetUsageFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | Usage | ValidationFailedError
    """

    return sync_detailed(
        client=client,
        group_by=group_by,
        from_=from_,
        to=to,
        modality=modality,
        api_key=api_key,
        format_=format_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    group_by: GetUsageGroupBy | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    modality: GetUsageModality | Unset = UNSET,
    api_key: str | Unset = UNSET,
    format_: GetUsageFormat | Unset = UNSET,
) -> Response[
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
    | ValidationFailedError
]:
    """Get usage

     Spend over a period, grouped by day, model, modality or key; `format=csv` answers the same rows as
    CSV.

    Needs a key with the `usage:read` scope and the viewer role or higher.

    Args:
        group_by (GetUsageGroupBy | Unset):
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        modality (GetUsageModality | Unset):
        api_key (str | Unset):
        format_ (GetUsageFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | Usage | ValidationFailedError]
    """

    kwargs = _get_kwargs(
        group_by=group_by,
        from_=from_,
        to=to,
        modality=modality,
        api_key=api_key,
        format_=format_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    group_by: GetUsageGroupBy | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    modality: GetUsageModality | Unset = UNSET,
    api_key: str | Unset = UNSET,
    format_: GetUsageFormat | Unset = UNSET,
) -> (
    InternalErrorError
    | IpNotAllowedOrInsufficientRoleError
    | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError
    | PayloadTooLargeError
    | RateLimitedError
    | ServiceUnavailableError
    | UnsupportedMediaTypeError
    | Usage
    | ValidationFailedError
    | None
):
    """Get usage

     Spend over a period, grouped by day, model, modality or key; `format=csv` answers the same rows as
    CSV.

    Needs a key with the `usage:read` scope and the viewer role or higher.

    Args:
        group_by (GetUsageGroupBy | Unset):
        from_ (datetime.date | Unset):
        to (datetime.date | Unset):
        modality (GetUsageModality | Unset):
        api_key (str | Unset):
        format_ (GetUsageFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InternalErrorError | IpNotAllowedOrInsufficientRoleError | MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError | PayloadTooLargeError | RateLimitedError | ServiceUnavailableError | UnsupportedMediaTypeError | Usage | ValidationFailedError
    """

    return (
        await asyncio_detailed(
            client=client,
            group_by=group_by,
            from_=from_,
            to=to,
            modality=modality,
            api_key=api_key,
            format_=format_,
        )
    ).parsed

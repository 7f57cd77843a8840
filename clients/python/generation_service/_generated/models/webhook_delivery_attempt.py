from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookDeliveryAttempt")


@_attrs_define
class WebhookDeliveryAttempt:
    """
    Attributes:
        number (int):
        status_code (int | None): The receiver's HTTP status; null when it never answered.
        latency_ms (int):
        error (None | str):
        response_body (None | str): The start of the receiver's answer.
        throttled_ms (int): How long this attempt waited for its turn under the webhook's `max_deliveries_per_second`
            before it was sent; 0 when it did not.
        created_at (datetime.datetime):
    """

    number: int
    status_code: int | None
    latency_ms: int
    error: None | str
    response_body: None | str
    throttled_ms: int
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        status_code: int | None
        status_code = self.status_code

        latency_ms = self.latency_ms

        error: None | str
        error = self.error

        response_body: None | str
        response_body = self.response_body

        throttled_ms = self.throttled_ms

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "status_code": status_code,
                "latency_ms": latency_ms,
                "error": error,
                "response_body": response_body,
                "throttled_ms": throttled_ms,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        number = d.pop("number")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        latency_ms = d.pop("latency_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))

        throttled_ms = d.pop("throttled_ms")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        webhook_delivery_attempt = cls(
            number=number,
            status_code=status_code,
            latency_ms=latency_ms,
            error=error,
            response_body=response_body,
            throttled_ms=throttled_ms,
            created_at=created_at,
        )

        return webhook_delivery_attempt

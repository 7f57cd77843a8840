from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateWebhookBody")


@_attrs_define
class UpdateWebhookBody:
    """
    Attributes:
        status (Literal['enabled'] | Unset): `enabled` resumes deliveries to a disabled webhook.
        max_deliveries_per_second (float | None | Unset): At most this many deliveries a second (0.01 to 1000);
            deliveries above it wait for their turn. Null: unlimited.
    """

    status: Literal["enabled"] | Unset = UNSET
    max_deliveries_per_second: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        max_deliveries_per_second: float | None | Unset
        if isinstance(self.max_deliveries_per_second, Unset):
            max_deliveries_per_second = UNSET
        else:
            max_deliveries_per_second = self.max_deliveries_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if max_deliveries_per_second is not UNSET:
            field_dict["max_deliveries_per_second"] = max_deliveries_per_second

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = cast(Literal["enabled"] | Unset, d.pop("status", UNSET))
        if status != "enabled" and not isinstance(status, Unset):
            raise ValueError(f"status must match const 'enabled', got '{status}'")

        def _parse_max_deliveries_per_second(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_deliveries_per_second = _parse_max_deliveries_per_second(d.pop("max_deliveries_per_second", UNSET))

        update_webhook_body = cls(
            status=status,
            max_deliveries_per_second=max_deliveries_per_second,
        )

        return update_webhook_body

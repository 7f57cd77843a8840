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

T = TypeVar("T", bound="UpdateWebhookBody")


@_attrs_define
class UpdateWebhookBody:
    """
    Attributes:
        status (Literal['enabled']): `enabled` resumes deliveries to a disabled webhook.
    """

    status: Literal["enabled"]

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = cast(Literal["enabled"], d.pop("status"))
        if status != "enabled":
            raise ValueError(f"status must match const 'enabled', got '{status}'")

        update_webhook_body = cls(
            status=status,
        )

        return update_webhook_body

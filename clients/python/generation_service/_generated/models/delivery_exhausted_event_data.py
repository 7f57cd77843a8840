from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeliveryExhaustedEventData")


@_attrs_define
class DeliveryExhaustedEventData:
    """
    Attributes:
        subscription_id (str):
        delivery_id (str):
        event_id (str): The event the delivery carried.
        event_type (str):
        attempt_count (int): Attempts sent before it gave up.
    """

    subscription_id: str
    delivery_id: str
    event_id: str
    event_type: str
    attempt_count: int

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        delivery_id = self.delivery_id

        event_id = self.event_id

        event_type = self.event_type

        attempt_count = self.attempt_count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription_id": subscription_id,
                "delivery_id": delivery_id,
                "event_id": event_id,
                "event_type": event_type,
                "attempt_count": attempt_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        delivery_id = d.pop("delivery_id")

        event_id = d.pop("event_id")

        event_type = d.pop("event_type")

        attempt_count = d.pop("attempt_count")

        delivery_exhausted_event_data = cls(
            subscription_id=subscription_id,
            delivery_id=delivery_id,
            event_id=event_id,
            event_type=event_type,
            attempt_count=attempt_count,
        )

        return delivery_exhausted_event_data

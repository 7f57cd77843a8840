from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.delivery_exhausted_event_data import DeliveryExhaustedEventData


T = TypeVar("T", bound="DeliveryExhaustedEvent")


@_attrs_define
class DeliveryExhaustedEvent:
    """A delivery to a webhook of the organization ended `exhausted` (never sent to that webhook itself). Signed in the
    `X-Service-Signature` header.

        Attributes:
            id (str): The event id: the same on every attempt and replay of it.
            type_ (Literal['webhook.delivery_exhausted']):
            created_at (datetime.datetime):
            data (DeliveryExhaustedEventData):
    """

    id: str
    type_: Literal["webhook.delivery_exhausted"]
    created_at: datetime.datetime
    data: DeliveryExhaustedEventData

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created_at": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_exhausted_event_data import DeliveryExhaustedEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["webhook.delivery_exhausted"], d.pop("type"))
        if type_ != "webhook.delivery_exhausted":
            raise ValueError(f"type must match const 'webhook.delivery_exhausted', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = DeliveryExhaustedEventData.from_dict(d.pop("data"))

        delivery_exhausted_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return delivery_exhausted_event

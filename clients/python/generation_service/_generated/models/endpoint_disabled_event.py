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
    from ..models.endpoint_disabled_event_data import EndpointDisabledEventData


T = TypeVar("T", bound="EndpointDisabledEvent")


@_attrs_define
class EndpointDisabledEvent:
    """A webhook of the organization was disabled (never sent to that webhook itself); `PATCH` it with `{"status":
    "enabled"}` to resume. Signed in the `X-Service-Signature` header.

        Attributes:
            id (str): The event id: the same on every attempt and replay of it.
            type_ (Literal['webhook.endpoint_disabled']):
            created_at (datetime.datetime):
            data (EndpointDisabledEventData):
    """

    id: str
    type_: Literal["webhook.endpoint_disabled"]
    created_at: datetime.datetime
    data: EndpointDisabledEventData

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
        from ..models.endpoint_disabled_event_data import EndpointDisabledEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["webhook.endpoint_disabled"], d.pop("type"))
        if type_ != "webhook.endpoint_disabled":
            raise ValueError(f"type must match const 'webhook.endpoint_disabled', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = EndpointDisabledEventData.from_dict(d.pop("data"))

        endpoint_disabled_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return endpoint_disabled_event

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
    from ..models.anomaly_detected_event_data import AnomalyDetectedEventData


T = TypeVar("T", bound="AnomalyDetectedEvent")


@_attrs_define
class AnomalyDetectedEvent:
    """The organization spent far above its usual rate and was paused. Signed in the `X-Service-Signature` header.

    Attributes:
        id (str): The event id: the same on every attempt and replay of it.
        type_ (Literal['usage.anomaly_detected']):
        created_at (datetime.datetime):
        data (AnomalyDetectedEventData):
    """

    id: str
    type_: Literal["usage.anomaly_detected"]
    created_at: datetime.datetime
    data: AnomalyDetectedEventData

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
        from ..models.anomaly_detected_event_data import AnomalyDetectedEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["usage.anomaly_detected"], d.pop("type"))
        if type_ != "usage.anomaly_detected":
            raise ValueError(f"type must match const 'usage.anomaly_detected', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = AnomalyDetectedEventData.from_dict(d.pop("data"))

        anomaly_detected_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return anomaly_detected_event

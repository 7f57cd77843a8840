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
    from ..models.generation_completed_event_data import GenerationCompletedEventData


T = TypeVar("T", bound="GenerationCompletedEvent")


@_attrs_define
class GenerationCompletedEvent:
    """A generation succeeded. Signed in the `X-Service-Signature` header.

    Attributes:
        id (str): The event id: the same on every attempt and replay of it.
        type_ (Literal['generation.completed']):
        created_at (datetime.datetime):
        data (GenerationCompletedEventData):
    """

    id: str
    type_: Literal["generation.completed"]
    created_at: datetime.datetime
    data: GenerationCompletedEventData

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
        from ..models.generation_completed_event_data import (
            GenerationCompletedEventData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["generation.completed"], d.pop("type"))
        if type_ != "generation.completed":
            raise ValueError(f"type must match const 'generation.completed', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = GenerationCompletedEventData.from_dict(d.pop("data"))

        generation_completed_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return generation_completed_event

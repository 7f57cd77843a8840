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
    from ..models.budget_threshold_event_data import BudgetThresholdEventData


T = TypeVar("T", bound="BudgetThresholdEvent")


@_attrs_define
class BudgetThresholdEvent:
    """An API key's spend this month reached 50, 80 or 100 % of its monthly budget. Signed in the `X-Service-Signature`
    header.

        Attributes:
            id (str): The event id: the same on every attempt and replay of it.
            type_ (Literal['usage.budget_threshold']):
            created_at (datetime.datetime):
            data (BudgetThresholdEventData):
    """

    id: str
    type_: Literal["usage.budget_threshold"]
    created_at: datetime.datetime
    data: BudgetThresholdEventData

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
        from ..models.budget_threshold_event_data import BudgetThresholdEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["usage.budget_threshold"], d.pop("type"))
        if type_ != "usage.budget_threshold":
            raise ValueError(f"type must match const 'usage.budget_threshold', got '{type_}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = BudgetThresholdEventData.from_dict(d.pop("data"))

        budget_threshold_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return budget_threshold_event

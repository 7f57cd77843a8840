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

from ..models.usage_group_by import UsageGroupBy

if TYPE_CHECKING:
    from ..models.usage_row import UsageRow


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Attributes:
        object_ (Literal['list']):
        group_by (UsageGroupBy):
        from_ (datetime.date): The first day covered (UTC, inclusive).
        to (datetime.date): The last day covered (UTC, inclusive).
        data (list[UsageRow]):
    """

    object_: Literal["list"]
    group_by: UsageGroupBy
    from_: datetime.date
    to: datetime.date
    data: list[UsageRow]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        group_by = self.group_by.value

        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "group_by": group_by,
                "from": from_,
                "to": to,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_row import UsageRow

        d = dict(src_dict)
        object_ = cast(Literal["list"], d.pop("object"))
        if object_ != "list":
            raise ValueError(f"object must match const 'list', got '{object_}'")

        group_by = UsageGroupBy(d.pop("group_by"))

        from_ = datetime.date.fromisoformat(d.pop("from"))

        to = datetime.date.fromisoformat(d.pop("to"))

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = UsageRow.from_dict(data_item_data)

            data.append(data_item)

        usage = cls(
            object_=object_,
            group_by=group_by,
            from_=from_,
            to=to,
            data=data,
        )

        return usage

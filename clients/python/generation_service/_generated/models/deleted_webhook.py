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

T = TypeVar("T", bound="DeletedWebhook")


@_attrs_define
class DeletedWebhook:
    """
    Attributes:
        id (str):
        object_ (Literal['webhook']):
        deleted (Literal[True]):
    """

    id: str
    object_: Literal["webhook"]
    deleted: Literal[True]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        deleted = self.deleted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "deleted": deleted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["webhook"], d.pop("object"))
        if object_ != "webhook":
            raise ValueError(f"object must match const 'webhook', got '{object_}'")

        deleted = cast(Literal[True], d.pop("deleted"))
        if deleted != True:
            raise ValueError(f"deleted must match const True, got '{deleted}'")

        deleted_webhook = cls(
            id=id,
            object_=object_,
            deleted=deleted,
        )

        return deleted_webhook

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_list_models_response_200_data_item_object import (
    OpenAiListModelsResponse200DataItemObject,
)

T = TypeVar("T", bound="OpenAiListModelsResponse200DataItem")


@_attrs_define
class OpenAiListModelsResponse200DataItem:
    """
    Attributes:
        id (str): The model’s slug, to send as `model`.
        object_ (OpenAiListModelsResponse200DataItemObject):
        created (int): Always 0: the catalog keeps no release dates.
        owned_by (str): The provider tried first.
    """

    id: str
    object_: OpenAiListModelsResponse200DataItemObject
    created: int
    owned_by: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        created = self.created

        owned_by = self.owned_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "created": created,
                "owned_by": owned_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = OpenAiListModelsResponse200DataItemObject(d.pop("object"))

        created = d.pop("created")

        owned_by = d.pop("owned_by")

        open_ai_list_models_response_200_data_item = cls(
            id=id,
            object_=object_,
            created=created,
            owned_by=owned_by,
        )

        open_ai_list_models_response_200_data_item.additional_properties = d
        return open_ai_list_models_response_200_data_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

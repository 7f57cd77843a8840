from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_list_models_response_200_object import (
    OpenAiListModelsResponse200Object,
)

if TYPE_CHECKING:
    from ..models.open_ai_list_models_response_200_data_item import (
        OpenAiListModelsResponse200DataItem,
    )


T = TypeVar("T", bound="OpenAiListModelsResponse200")


@_attrs_define
class OpenAiListModelsResponse200:
    """
    Attributes:
        object_ (OpenAiListModelsResponse200Object):
        data (list[OpenAiListModelsResponse200DataItem]):
    """

    object_: OpenAiListModelsResponse200Object
    data: list[OpenAiListModelsResponse200DataItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "object": object_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_ai_list_models_response_200_data_item import (
            OpenAiListModelsResponse200DataItem,
        )

        d = dict(src_dict)
        object_ = OpenAiListModelsResponse200Object(d.pop("object"))

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = OpenAiListModelsResponse200DataItem.from_dict(data_item_data)

            data.append(data_item)

        open_ai_list_models_response_200 = cls(
            object_=object_,
            data=data,
        )

        open_ai_list_models_response_200.additional_properties = d
        return open_ai_list_models_response_200

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_chat_completion_response_200_object import (
    OpenAiChatCompletionResponse200Object,
)

if TYPE_CHECKING:
    from ..models.open_ai_chat_completion_response_200_choices_item import (
        OpenAiChatCompletionResponse200ChoicesItem,
    )
    from ..models.open_ai_chat_completion_response_200_usage import (
        OpenAiChatCompletionResponse200Usage,
    )


T = TypeVar("T", bound="OpenAiChatCompletionResponse200")


@_attrs_define
class OpenAiChatCompletionResponse200:
    """
    Attributes:
        id (str): The generation’s id: GET /v1/generations/{id} shows its credits.
        object_ (OpenAiChatCompletionResponse200Object):
        created (int): Unix seconds.
        model (str):
        choices (list[OpenAiChatCompletionResponse200ChoicesItem]):
        usage (OpenAiChatCompletionResponse200Usage):
    """

    id: str
    object_: OpenAiChatCompletionResponse200Object
    created: int
    model: str
    choices: list[OpenAiChatCompletionResponse200ChoicesItem]
    usage: OpenAiChatCompletionResponse200Usage
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        created = self.created

        model = self.model

        choices = []
        for choices_item_data in self.choices:
            choices_item = choices_item_data.to_dict()
            choices.append(choices_item)

        usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "created": created,
                "model": model,
                "choices": choices,
                "usage": usage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_ai_chat_completion_response_200_choices_item import (
            OpenAiChatCompletionResponse200ChoicesItem,
        )
        from ..models.open_ai_chat_completion_response_200_usage import (
            OpenAiChatCompletionResponse200Usage,
        )

        d = dict(src_dict)
        id = d.pop("id")

        object_ = OpenAiChatCompletionResponse200Object(d.pop("object"))

        created = d.pop("created")

        model = d.pop("model")

        choices = []
        _choices = d.pop("choices")
        for choices_item_data in _choices:
            choices_item = OpenAiChatCompletionResponse200ChoicesItem.from_dict(choices_item_data)

            choices.append(choices_item)

        usage = OpenAiChatCompletionResponse200Usage.from_dict(d.pop("usage"))

        open_ai_chat_completion_response_200 = cls(
            id=id,
            object_=object_,
            created=created,
            model=model,
            choices=choices,
            usage=usage,
        )

        open_ai_chat_completion_response_200.additional_properties = d
        return open_ai_chat_completion_response_200

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

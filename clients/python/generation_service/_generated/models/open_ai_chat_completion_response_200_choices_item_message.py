from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_chat_completion_response_200_choices_item_message_role import (
    OpenAiChatCompletionResponse200ChoicesItemMessageRole,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="OpenAiChatCompletionResponse200ChoicesItemMessage")


@_attrs_define
class OpenAiChatCompletionResponse200ChoicesItemMessage:
    """
    Attributes:
        role (OpenAiChatCompletionResponse200ChoicesItemMessageRole):
        content (str):
        refusal (None | Unset):
    """

    role: OpenAiChatCompletionResponse200ChoicesItemMessageRole
    content: str
    refusal: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        content = self.content

        refusal = self.refusal

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if refusal is not UNSET:
            field_dict["refusal"] = refusal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = OpenAiChatCompletionResponse200ChoicesItemMessageRole(d.pop("role"))

        content = d.pop("content")

        refusal = d.pop("refusal", UNSET)

        open_ai_chat_completion_response_200_choices_item_message = cls(
            role=role,
            content=content,
            refusal=refusal,
        )

        open_ai_chat_completion_response_200_choices_item_message.additional_properties = d
        return open_ai_chat_completion_response_200_choices_item_message

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.open_ai_chat_completion_body_messages_item_content_type_1_item_type import (
    OpenAiChatCompletionBodyMessagesItemContentType1ItemType,
)

T = TypeVar("T", bound="OpenAiChatCompletionBodyMessagesItemContentType1Item")


@_attrs_define
class OpenAiChatCompletionBodyMessagesItemContentType1Item:
    """
    Attributes:
        type_ (OpenAiChatCompletionBodyMessagesItemContentType1ItemType):
        text (str):
    """

    type_: OpenAiChatCompletionBodyMessagesItemContentType1ItemType
    text: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = OpenAiChatCompletionBodyMessagesItemContentType1ItemType(d.pop("type"))

        text = d.pop("text")

        open_ai_chat_completion_body_messages_item_content_type_1_item = cls(
            type_=type_,
            text=text,
        )

        return open_ai_chat_completion_body_messages_item_content_type_1_item

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.open_ai_chat_completion_body_messages_item_role import (
    OpenAiChatCompletionBodyMessagesItemRole,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.open_ai_chat_completion_body_messages_item_content_type_1_item import (
        OpenAiChatCompletionBodyMessagesItemContentType1Item,
    )


T = TypeVar("T", bound="OpenAiChatCompletionBodyMessagesItem")


@_attrs_define
class OpenAiChatCompletionBodyMessagesItem:
    """
    Attributes:
        role (OpenAiChatCompletionBodyMessagesItemRole):
        content (list[OpenAiChatCompletionBodyMessagesItemContentType1Item] | str):
        name (str | Unset):
    """

    role: OpenAiChatCompletionBodyMessagesItemRole
    content: list[OpenAiChatCompletionBodyMessagesItemContentType1Item] | str
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        content: list[dict[str, Any]] | str
        if isinstance(self.content, list):
            content = []
            for content_type_1_item_data in self.content:
                content_type_1_item = content_type_1_item_data.to_dict()
                content.append(content_type_1_item)

        else:
            content = self.content

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_ai_chat_completion_body_messages_item_content_type_1_item import (
            OpenAiChatCompletionBodyMessagesItemContentType1Item,
        )

        d = dict(src_dict)
        role = OpenAiChatCompletionBodyMessagesItemRole(d.pop("role"))

        def _parse_content(data: object) -> list[OpenAiChatCompletionBodyMessagesItemContentType1Item] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = []
                _content_type_1 = data
                for content_type_1_item_data in _content_type_1:
                    content_type_1_item = OpenAiChatCompletionBodyMessagesItemContentType1Item.from_dict(
                        content_type_1_item_data
                    )

                    content_type_1.append(content_type_1_item)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[OpenAiChatCompletionBodyMessagesItemContentType1Item] | str, data)

        content = _parse_content(d.pop("content"))

        name = d.pop("name", UNSET)

        open_ai_chat_completion_body_messages_item = cls(
            role=role,
            content=content,
            name=name,
        )

        return open_ai_chat_completion_body_messages_item

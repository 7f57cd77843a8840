from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_chat_body_messages_item_role import CreateChatBodyMessagesItemRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateChatBodyMessagesItem")


@_attrs_define
class CreateChatBodyMessagesItem:
    """
    Attributes:
        content (str):
        role (CreateChatBodyMessagesItemRole | Unset):
    """

    content: str
    role: CreateChatBodyMessagesItemRole | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content": content,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content = d.pop("content")

        _role = d.pop("role", UNSET)
        role: CreateChatBodyMessagesItemRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = CreateChatBodyMessagesItemRole(_role)

        create_chat_body_messages_item = cls(
            content=content,
            role=role,
        )

        return create_chat_body_messages_item

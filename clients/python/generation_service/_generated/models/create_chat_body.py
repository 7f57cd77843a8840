from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_chat_body_messages_item import CreateChatBodyMessagesItem


T = TypeVar("T", bound="CreateChatBody")


@_attrs_define
class CreateChatBody:
    """
    Attributes:
        model (str):
        messages (list[CreateChatBodyMessagesItem]):
        max_tokens (int | Unset):
        temperature (float | Unset):
        system_prompt (str | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    messages: list[CreateChatBodyMessagesItem]
    max_tokens: int | Unset = UNSET
    temperature: float | Unset = UNSET
    system_prompt: str | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        max_tokens = self.max_tokens

        temperature = self.temperature

        system_prompt = self.system_prompt

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "messages": messages,
            }
        )
        if max_tokens is not UNSET:
            field_dict["max_tokens"] = max_tokens
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if system_prompt is not UNSET:
            field_dict["system_prompt"] = system_prompt
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_chat_body_messages_item import CreateChatBodyMessagesItem

        d = dict(src_dict)
        model = d.pop("model")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = CreateChatBodyMessagesItem.from_dict(messages_item_data)

            messages.append(messages_item)

        max_tokens = d.pop("max_tokens", UNSET)

        temperature = d.pop("temperature", UNSET)

        system_prompt = d.pop("system_prompt", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_chat_body = cls(
            model=model,
            messages=messages,
            max_tokens=max_tokens,
            temperature=temperature,
            system_prompt=system_prompt,
            max_credits=max_credits,
            retention=retention,
        )

        return create_chat_body

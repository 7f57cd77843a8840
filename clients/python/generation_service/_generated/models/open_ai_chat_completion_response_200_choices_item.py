from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_chat_completion_response_200_choices_item_finish_reason import (
    OpenAiChatCompletionResponse200ChoicesItemFinishReason,
)
from ..models.open_ai_chat_completion_response_200_choices_item_index import (
    OpenAiChatCompletionResponse200ChoicesItemIndex,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.open_ai_chat_completion_response_200_choices_item_message import (
        OpenAiChatCompletionResponse200ChoicesItemMessage,
    )


T = TypeVar("T", bound="OpenAiChatCompletionResponse200ChoicesItem")


@_attrs_define
class OpenAiChatCompletionResponse200ChoicesItem:
    """
    Attributes:
        index (OpenAiChatCompletionResponse200ChoicesItemIndex):
        message (OpenAiChatCompletionResponse200ChoicesItemMessage):
        finish_reason (OpenAiChatCompletionResponse200ChoicesItemFinishReason):
        logprobs (None | Unset):
    """

    index: OpenAiChatCompletionResponse200ChoicesItemIndex
    message: OpenAiChatCompletionResponse200ChoicesItemMessage
    finish_reason: OpenAiChatCompletionResponse200ChoicesItemFinishReason
    logprobs: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index.value

        message = self.message.to_dict()

        finish_reason = self.finish_reason.value

        logprobs = self.logprobs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "message": message,
                "finish_reason": finish_reason,
            }
        )
        if logprobs is not UNSET:
            field_dict["logprobs"] = logprobs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_ai_chat_completion_response_200_choices_item_message import (
            OpenAiChatCompletionResponse200ChoicesItemMessage,
        )

        d = dict(src_dict)
        index = OpenAiChatCompletionResponse200ChoicesItemIndex(d.pop("index"))

        message = OpenAiChatCompletionResponse200ChoicesItemMessage.from_dict(d.pop("message"))

        finish_reason = OpenAiChatCompletionResponse200ChoicesItemFinishReason(d.pop("finish_reason"))

        logprobs = d.pop("logprobs", UNSET)

        open_ai_chat_completion_response_200_choices_item = cls(
            index=index,
            message=message,
            finish_reason=finish_reason,
            logprobs=logprobs,
        )

        open_ai_chat_completion_response_200_choices_item.additional_properties = d
        return open_ai_chat_completion_response_200_choices_item

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

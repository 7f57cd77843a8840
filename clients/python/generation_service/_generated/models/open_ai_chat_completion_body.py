from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.open_ai_chat_completion_body_messages_item import (
        OpenAiChatCompletionBodyMessagesItem,
    )


T = TypeVar("T", bound="OpenAiChatCompletionBody")


@_attrs_define
class OpenAiChatCompletionBody:
    """
    Attributes:
        model (str):
        messages (list[OpenAiChatCompletionBodyMessagesItem]):
        max_tokens (int | None | Unset):
        max_completion_tokens (int | None | Unset):
        temperature (float | None | Unset):
        top_p (float | None | Unset):
        n (int | None | Unset):
        stream (bool | None | Unset):
        stop (list[str] | None | str | Unset):
        seed (int | None | Unset):
        user (str | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
    """

    model: str
    messages: list[OpenAiChatCompletionBodyMessagesItem]
    max_tokens: int | None | Unset = UNSET
    max_completion_tokens: int | None | Unset = UNSET
    temperature: float | None | Unset = UNSET
    top_p: float | None | Unset = UNSET
    n: int | None | Unset = UNSET
    stream: bool | None | Unset = UNSET
    stop: list[str] | None | str | Unset = UNSET
    seed: int | None | Unset = UNSET
    user: str | Unset = UNSET
    max_credits: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        max_tokens: int | None | Unset
        if isinstance(self.max_tokens, Unset):
            max_tokens = UNSET
        else:
            max_tokens = self.max_tokens

        max_completion_tokens: int | None | Unset
        if isinstance(self.max_completion_tokens, Unset):
            max_completion_tokens = UNSET
        else:
            max_completion_tokens = self.max_completion_tokens

        temperature: float | None | Unset
        if isinstance(self.temperature, Unset):
            temperature = UNSET
        else:
            temperature = self.temperature

        top_p: float | None | Unset
        if isinstance(self.top_p, Unset):
            top_p = UNSET
        else:
            top_p = self.top_p

        n: int | None | Unset
        if isinstance(self.n, Unset):
            n = UNSET
        else:
            n = self.n

        stream: bool | None | Unset
        if isinstance(self.stream, Unset):
            stream = UNSET
        else:
            stream = self.stream

        stop: list[str] | None | str | Unset
        if isinstance(self.stop, Unset):
            stop = UNSET
        elif isinstance(self.stop, list):
            stop = self.stop

        else:
            stop = self.stop

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        user = self.user

        max_credits = self.max_credits

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "messages": messages,
            }
        )
        if max_tokens is not UNSET:
            field_dict["max_tokens"] = max_tokens
        if max_completion_tokens is not UNSET:
            field_dict["max_completion_tokens"] = max_completion_tokens
        if temperature is not UNSET:
            field_dict["temperature"] = temperature
        if top_p is not UNSET:
            field_dict["top_p"] = top_p
        if n is not UNSET:
            field_dict["n"] = n
        if stream is not UNSET:
            field_dict["stream"] = stream
        if stop is not UNSET:
            field_dict["stop"] = stop
        if seed is not UNSET:
            field_dict["seed"] = seed
        if user is not UNSET:
            field_dict["user"] = user
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_ai_chat_completion_body_messages_item import (
            OpenAiChatCompletionBodyMessagesItem,
        )

        d = dict(src_dict)
        model = d.pop("model")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = OpenAiChatCompletionBodyMessagesItem.from_dict(messages_item_data)

            messages.append(messages_item)

        def _parse_max_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_tokens = _parse_max_tokens(d.pop("max_tokens", UNSET))

        def _parse_max_completion_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_completion_tokens = _parse_max_completion_tokens(d.pop("max_completion_tokens", UNSET))

        def _parse_temperature(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        temperature = _parse_temperature(d.pop("temperature", UNSET))

        def _parse_top_p(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        top_p = _parse_top_p(d.pop("top_p", UNSET))

        def _parse_n(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        n = _parse_n(d.pop("n", UNSET))

        def _parse_stream(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        stream = _parse_stream(d.pop("stream", UNSET))

        def _parse_stop(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                stop_type_2 = cast(list[str], data)

                return stop_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        stop = _parse_stop(d.pop("stop", UNSET))

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        user = d.pop("user", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        open_ai_chat_completion_body = cls(
            model=model,
            messages=messages,
            max_tokens=max_tokens,
            max_completion_tokens=max_completion_tokens,
            temperature=temperature,
            top_p=top_p,
            n=n,
            stream=stream,
            stop=stop,
            seed=seed,
            user=user,
            max_credits=max_credits,
        )

        return open_ai_chat_completion_body

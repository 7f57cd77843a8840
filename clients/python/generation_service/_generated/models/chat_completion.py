from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.chat_completion_status import ChatCompletionStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chat_completion_message import ChatCompletionMessage
    from ..models.chat_completion_usage import ChatCompletionUsage


T = TypeVar("T", bound="ChatCompletion")


@_attrs_define
class ChatCompletion:
    """A finished chat (succeeded or failed); one still running or cancelled is answered as its Generation.

    Attributes:
        id (str):
        object_ (Literal['chat.completion']):
        status (ChatCompletionStatus):
        modality (Literal['chat']):
        model (str):
        message (ChatCompletionMessage):
        reserved_credits (int): Credits held when the chat was admitted (1 credit = $0.001).
        charged_credits (int): Credits charged (1 credit = $0.001).
        refunded_credits (int): Credits given back (1 credit = $0.001).
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        usage (ChatCompletionUsage | Unset): What the provider counted.
        error_code (None | str | Unset):
        error_message (None | str | Unset):
    """

    id: str
    object_: Literal["chat.completion"]
    status: ChatCompletionStatus
    modality: Literal["chat"]
    model: str
    message: ChatCompletionMessage
    reserved_credits: int
    charged_credits: int
    refunded_credits: int
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    usage: ChatCompletionUsage | Unset = UNSET
    error_code: None | str | Unset = UNSET
    error_message: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        status = self.status.value

        modality = self.modality

        model = self.model

        message = self.message.to_dict()

        reserved_credits = self.reserved_credits

        charged_credits = self.charged_credits

        refunded_credits = self.refunded_credits

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        error_code: None | str | Unset
        if isinstance(self.error_code, Unset):
            error_code = UNSET
        else:
            error_code = self.error_code

        error_message: None | str | Unset
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "status": status,
                "modality": modality,
                "model": model,
                "message": message,
                "reserved_credits": reserved_credits,
                "charged_credits": charged_credits,
                "refunded_credits": refunded_credits,
                "created_at": created_at,
                "finished_at": finished_at,
            }
        )
        if usage is not UNSET:
            field_dict["usage"] = usage
        if error_code is not UNSET:
            field_dict["error_code"] = error_code
        if error_message is not UNSET:
            field_dict["error_message"] = error_message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.chat_completion_message import ChatCompletionMessage
        from ..models.chat_completion_usage import ChatCompletionUsage

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["chat.completion"], d.pop("object"))
        if object_ != "chat.completion":
            raise ValueError(f"object must match const 'chat.completion', got '{object_}'")

        status = ChatCompletionStatus(d.pop("status"))

        modality = cast(Literal["chat"], d.pop("modality"))
        if modality != "chat":
            raise ValueError(f"modality must match const 'chat', got '{modality}'")

        model = d.pop("model")

        message = ChatCompletionMessage.from_dict(d.pop("message"))

        reserved_credits = d.pop("reserved_credits")

        charged_credits = d.pop("charged_credits")

        refunded_credits = d.pop("refunded_credits")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        _usage = d.pop("usage", UNSET)
        usage: ChatCompletionUsage | Unset
        if isinstance(_usage, Unset):
            usage = UNSET
        else:
            usage = ChatCompletionUsage.from_dict(_usage)

        def _parse_error_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_code = _parse_error_code(d.pop("error_code", UNSET))

        def _parse_error_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_message = _parse_error_message(d.pop("error_message", UNSET))

        chat_completion = cls(
            id=id,
            object_=object_,
            status=status,
            modality=modality,
            model=model,
            message=message,
            reserved_credits=reserved_credits,
            charged_credits=charged_credits,
            refunded_credits=refunded_credits,
            created_at=created_at,
            finished_at=finished_at,
            usage=usage,
            error_code=error_code,
            error_message=error_message,
        )

        return chat_completion

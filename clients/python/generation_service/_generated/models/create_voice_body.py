from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_voice_body_operation import CreateVoiceBodyOperation
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateVoiceBody")


@_attrs_define
class CreateVoiceBody:
    """
    Attributes:
        model (str):
        operation (CreateVoiceBodyOperation | Unset):
        text (str | Unset):
        voice_id (str | Unset):
        audio_url (str | Unset):
        language (str | Unset):
        seed (int | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    operation: CreateVoiceBodyOperation | Unset = UNSET
    text: str | Unset = UNSET
    voice_id: str | Unset = UNSET
    audio_url: str | Unset = UNSET
    language: str | Unset = UNSET
    seed: int | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        operation: str | Unset = UNSET
        if not isinstance(self.operation, Unset):
            operation = self.operation.value

        text = self.text

        voice_id = self.voice_id

        audio_url = self.audio_url

        language = self.language

        seed = self.seed

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
            }
        )
        if operation is not UNSET:
            field_dict["operation"] = operation
        if text is not UNSET:
            field_dict["text"] = text
        if voice_id is not UNSET:
            field_dict["voice_id"] = voice_id
        if audio_url is not UNSET:
            field_dict["audio_url"] = audio_url
        if language is not UNSET:
            field_dict["language"] = language
        if seed is not UNSET:
            field_dict["seed"] = seed
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = d.pop("model")

        _operation = d.pop("operation", UNSET)
        operation: CreateVoiceBodyOperation | Unset
        if isinstance(_operation, Unset):
            operation = UNSET
        else:
            operation = CreateVoiceBodyOperation(_operation)

        text = d.pop("text", UNSET)

        voice_id = d.pop("voice_id", UNSET)

        audio_url = d.pop("audio_url", UNSET)

        language = d.pop("language", UNSET)

        seed = d.pop("seed", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_voice_body = cls(
            model=model,
            operation=operation,
            text=text,
            voice_id=voice_id,
            audio_url=audio_url,
            language=language,
            seed=seed,
            max_credits=max_credits,
            retention=retention,
        )

        return create_voice_body

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateAvatarBody")


@_attrs_define
class CreateAvatarBody:
    """
    Attributes:
        model (str):
        text (str | Unset):
        avatar_id (str | Unset):
        voice_id (str | Unset):
        video_url (str | Unset):
        audio_url (str | Unset):
        image_url (str | Unset):
        seed (int | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    text: str | Unset = UNSET
    avatar_id: str | Unset = UNSET
    voice_id: str | Unset = UNSET
    video_url: str | Unset = UNSET
    audio_url: str | Unset = UNSET
    image_url: str | Unset = UNSET
    seed: int | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        text = self.text

        avatar_id = self.avatar_id

        voice_id = self.voice_id

        video_url = self.video_url

        audio_url = self.audio_url

        image_url = self.image_url

        seed = self.seed

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
            }
        )
        if text is not UNSET:
            field_dict["text"] = text
        if avatar_id is not UNSET:
            field_dict["avatar_id"] = avatar_id
        if voice_id is not UNSET:
            field_dict["voice_id"] = voice_id
        if video_url is not UNSET:
            field_dict["video_url"] = video_url
        if audio_url is not UNSET:
            field_dict["audio_url"] = audio_url
        if image_url is not UNSET:
            field_dict["image_url"] = image_url
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

        text = d.pop("text", UNSET)

        avatar_id = d.pop("avatar_id", UNSET)

        voice_id = d.pop("voice_id", UNSET)

        video_url = d.pop("video_url", UNSET)

        audio_url = d.pop("audio_url", UNSET)

        image_url = d.pop("image_url", UNSET)

        seed = d.pop("seed", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_avatar_body = cls(
            model=model,
            text=text,
            avatar_id=avatar_id,
            voice_id=voice_id,
            video_url=video_url,
            audio_url=audio_url,
            image_url=image_url,
            seed=seed,
            max_credits=max_credits,
            retention=retention,
        )

        return create_avatar_body

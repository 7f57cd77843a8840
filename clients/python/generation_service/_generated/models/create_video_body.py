from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateVideoBody")


@_attrs_define
class CreateVideoBody:
    """
    Attributes:
        model (str):
        prompt (str):
        seed (int | Unset):
        duration_s (int | Unset):
        aspect_ratio (str | Unset):
        image_url (str | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    prompt: str
    seed: int | Unset = UNSET
    duration_s: int | Unset = UNSET
    aspect_ratio: str | Unset = UNSET
    image_url: str | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        prompt = self.prompt

        seed = self.seed

        duration_s = self.duration_s

        aspect_ratio = self.aspect_ratio

        image_url = self.image_url

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "prompt": prompt,
            }
        )
        if seed is not UNSET:
            field_dict["seed"] = seed
        if duration_s is not UNSET:
            field_dict["duration_s"] = duration_s
        if aspect_ratio is not UNSET:
            field_dict["aspect_ratio"] = aspect_ratio
        if image_url is not UNSET:
            field_dict["image_url"] = image_url
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = d.pop("model")

        prompt = d.pop("prompt")

        seed = d.pop("seed", UNSET)

        duration_s = d.pop("duration_s", UNSET)

        aspect_ratio = d.pop("aspect_ratio", UNSET)

        image_url = d.pop("image_url", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_video_body = cls(
            model=model,
            prompt=prompt,
            seed=seed,
            duration_s=duration_s,
            aspect_ratio=aspect_ratio,
            image_url=image_url,
            max_credits=max_credits,
            retention=retention,
        )

        return create_video_body

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_image_body_aspect_ratio import CreateImageBodyAspectRatio
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateImageBody")


@_attrs_define
class CreateImageBody:
    """
    Attributes:
        model (str):
        prompt (str):
        aspect_ratio (CreateImageBodyAspectRatio | Unset):
        num_outputs (int | Unset):
        negative_prompt (str | Unset):
        seed (int | Unset):
        image_url (str | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    prompt: str
    aspect_ratio: CreateImageBodyAspectRatio | Unset = UNSET
    num_outputs: int | Unset = UNSET
    negative_prompt: str | Unset = UNSET
    seed: int | Unset = UNSET
    image_url: str | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        prompt = self.prompt

        aspect_ratio: str | Unset = UNSET
        if not isinstance(self.aspect_ratio, Unset):
            aspect_ratio = self.aspect_ratio.value

        num_outputs = self.num_outputs

        negative_prompt = self.negative_prompt

        seed = self.seed

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
        if aspect_ratio is not UNSET:
            field_dict["aspect_ratio"] = aspect_ratio
        if num_outputs is not UNSET:
            field_dict["num_outputs"] = num_outputs
        if negative_prompt is not UNSET:
            field_dict["negative_prompt"] = negative_prompt
        if seed is not UNSET:
            field_dict["seed"] = seed
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

        _aspect_ratio = d.pop("aspect_ratio", UNSET)
        aspect_ratio: CreateImageBodyAspectRatio | Unset
        if isinstance(_aspect_ratio, Unset):
            aspect_ratio = UNSET
        else:
            aspect_ratio = CreateImageBodyAspectRatio(_aspect_ratio)

        num_outputs = d.pop("num_outputs", UNSET)

        negative_prompt = d.pop("negative_prompt", UNSET)

        seed = d.pop("seed", UNSET)

        image_url = d.pop("image_url", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_image_body = cls(
            model=model,
            prompt=prompt,
            aspect_ratio=aspect_ratio,
            num_outputs=num_outputs,
            negative_prompt=negative_prompt,
            seed=seed,
            image_url=image_url,
            max_credits=max_credits,
            retention=retention,
        )

        return create_image_body

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_upscale_body_scale_factor import CreateUpscaleBodyScaleFactor
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateUpscaleBody")


@_attrs_define
class CreateUpscaleBody:
    """
    Attributes:
        model (str):
        image_url (str):
        scale_factor (CreateUpscaleBodyScaleFactor | Unset):
        face_enhance (bool | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    image_url: str
    scale_factor: CreateUpscaleBodyScaleFactor | Unset = UNSET
    face_enhance: bool | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        image_url = self.image_url

        scale_factor: str | Unset = UNSET
        if not isinstance(self.scale_factor, Unset):
            scale_factor = self.scale_factor.value

        face_enhance = self.face_enhance

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "image_url": image_url,
            }
        )
        if scale_factor is not UNSET:
            field_dict["scale_factor"] = scale_factor
        if face_enhance is not UNSET:
            field_dict["face_enhance"] = face_enhance
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = d.pop("model")

        image_url = d.pop("image_url")

        _scale_factor = d.pop("scale_factor", UNSET)
        scale_factor: CreateUpscaleBodyScaleFactor | Unset
        if isinstance(_scale_factor, Unset):
            scale_factor = UNSET
        else:
            scale_factor = CreateUpscaleBodyScaleFactor(_scale_factor)

        face_enhance = d.pop("face_enhance", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_upscale_body = cls(
            model=model,
            image_url=image_url,
            scale_factor=scale_factor,
            face_enhance=face_enhance,
            max_credits=max_credits,
            retention=retention,
        )

        return create_upscale_body

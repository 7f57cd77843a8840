from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_three_d_body_mesh_complexity import CreateThreeDBodyMeshComplexity
from ..models.create_three_d_body_texture_size import CreateThreeDBodyTextureSize
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateThreeDBody")


@_attrs_define
class CreateThreeDBody:
    """
    Attributes:
        model (str):
        prompt (str):
        seed (int | Unset):
        image_url (str | Unset):
        texture_size (CreateThreeDBodyTextureSize | Unset):
        mesh_complexity (CreateThreeDBodyMeshComplexity | Unset):
        rigged (bool | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    model: str
    prompt: str
    seed: int | Unset = UNSET
    image_url: str | Unset = UNSET
    texture_size: CreateThreeDBodyTextureSize | Unset = UNSET
    mesh_complexity: CreateThreeDBodyMeshComplexity | Unset = UNSET
    rigged: bool | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        prompt = self.prompt

        seed = self.seed

        image_url = self.image_url

        texture_size: str | Unset = UNSET
        if not isinstance(self.texture_size, Unset):
            texture_size = self.texture_size.value

        mesh_complexity: str | Unset = UNSET
        if not isinstance(self.mesh_complexity, Unset):
            mesh_complexity = self.mesh_complexity.value

        rigged = self.rigged

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
        if image_url is not UNSET:
            field_dict["image_url"] = image_url
        if texture_size is not UNSET:
            field_dict["texture_size"] = texture_size
        if mesh_complexity is not UNSET:
            field_dict["mesh_complexity"] = mesh_complexity
        if rigged is not UNSET:
            field_dict["rigged"] = rigged
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

        image_url = d.pop("image_url", UNSET)

        _texture_size = d.pop("texture_size", UNSET)
        texture_size: CreateThreeDBodyTextureSize | Unset
        if isinstance(_texture_size, Unset):
            texture_size = UNSET
        else:
            texture_size = CreateThreeDBodyTextureSize(_texture_size)

        _mesh_complexity = d.pop("mesh_complexity", UNSET)
        mesh_complexity: CreateThreeDBodyMeshComplexity | Unset
        if isinstance(_mesh_complexity, Unset):
            mesh_complexity = UNSET
        else:
            mesh_complexity = CreateThreeDBodyMeshComplexity(_mesh_complexity)

        rigged = d.pop("rigged", UNSET)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_three_d_body = cls(
            model=model,
            prompt=prompt,
            seed=seed,
            image_url=image_url,
            texture_size=texture_size,
            mesh_complexity=mesh_complexity,
            rigged=rigged,
            max_credits=max_credits,
            retention=retention,
        )

        return create_three_d_body

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_comparison_body_params_shared import (
        CreateComparisonBodyParamsShared,
    )


T = TypeVar("T", bound="CreateComparisonBody")


@_attrs_define
class CreateComparisonBody:
    """
    Attributes:
        prompt (str):
        models (list[str]):
        params_shared (CreateComparisonBodyParamsShared | Unset):
        max_credits (int | Unset): A price ceiling: the most credits this request may reserve. Over it, the request is
            refused 402 max_cost_exceeded and nothing is reserved; at or under it, it runs as without.
        retention (str | Unset): How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days:
            `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's
            (30 days unless configured). Shown as each output's `expires_at`. Example: 7d.
    """

    prompt: str
    models: list[str]
    params_shared: CreateComparisonBodyParamsShared | Unset = UNSET
    max_credits: int | Unset = UNSET
    retention: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        prompt = self.prompt

        models = self.models

        params_shared: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params_shared, Unset):
            params_shared = self.params_shared.to_dict()

        max_credits = self.max_credits

        retention = self.retention

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "prompt": prompt,
                "models": models,
            }
        )
        if params_shared is not UNSET:
            field_dict["params_shared"] = params_shared
        if max_credits is not UNSET:
            field_dict["max_credits"] = max_credits
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_comparison_body_params_shared import (
            CreateComparisonBodyParamsShared,
        )

        d = dict(src_dict)
        prompt = d.pop("prompt")

        models = cast(list[str], d.pop("models"))

        _params_shared = d.pop("params_shared", UNSET)
        params_shared: CreateComparisonBodyParamsShared | Unset
        if isinstance(_params_shared, Unset):
            params_shared = UNSET
        else:
            params_shared = CreateComparisonBodyParamsShared.from_dict(_params_shared)

        max_credits = d.pop("max_credits", UNSET)

        retention = d.pop("retention", UNSET)

        create_comparison_body = cls(
            prompt=prompt,
            models=models,
            params_shared=params_shared,
            max_credits=max_credits,
            retention=retention,
        )

        return create_comparison_body

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.model_pricing_unit import ModelPricingUnit

T = TypeVar("T", bound="ModelPricing")


@_attrs_define
class ModelPricing:
    """
    Attributes:
        unit (ModelPricingUnit):
        credits_per_unit (float): Credits per unit before the plan multiplier (1 credit = $0.001).
    """

    unit: ModelPricingUnit
    credits_per_unit: float

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit.value

        credits_per_unit = self.credits_per_unit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "credits_per_unit": credits_per_unit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        unit = ModelPricingUnit(d.pop("unit"))

        credits_per_unit = d.pop("credits_per_unit")

        model_pricing = cls(
            unit=unit,
            credits_per_unit=credits_per_unit,
        )

        return model_pricing

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.generation_pricing_type_0_unit import GenerationPricingType0Unit

T = TypeVar("T", bound="GenerationPricingType0")


@_attrs_define
class GenerationPricingType0:
    """The price the generation was admitted at and is charged at, whatever the catalog says later; null for generations
    from before price snapshots were recorded.

        Attributes:
            unit (GenerationPricingType0Unit): The catalog entry's pricing unit.
            credits_per_unit (float): The catalog entry's credits per unit, before the plan multiplier.
            plan_multiplier (float): The plan's multiplier (1, 1.3 or 1.6).
            catalog_version (str): The catalog the price came from: a hash of its content, so any catalog change gives a new
                one.
    """

    unit: GenerationPricingType0Unit
    credits_per_unit: float
    plan_multiplier: float
    catalog_version: str

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit.value

        credits_per_unit = self.credits_per_unit

        plan_multiplier = self.plan_multiplier

        catalog_version = self.catalog_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "credits_per_unit": credits_per_unit,
                "plan_multiplier": plan_multiplier,
                "catalog_version": catalog_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        unit = GenerationPricingType0Unit(d.pop("unit"))

        credits_per_unit = d.pop("credits_per_unit")

        plan_multiplier = d.pop("plan_multiplier")

        catalog_version = d.pop("catalog_version")

        generation_pricing_type_0 = cls(
            unit=unit,
            credits_per_unit=credits_per_unit,
            plan_multiplier=plan_multiplier,
            catalog_version=catalog_version,
        )

        return generation_pricing_type_0

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pricing_snapshot_unit import PricingSnapshotUnit

T = TypeVar("T", bound="PricingSnapshot")


@_attrs_define
class PricingSnapshot:
    """The price a generation was admitted at and is charged at, whatever the catalog says later.

    Attributes:
        unit (PricingSnapshotUnit): The catalog entry's pricing unit.
        credits_per_unit (float): The catalog entry's credits per unit, before the plan multiplier.
        plan_multiplier (float): The plan's multiplier (1, 1.3 or 1.6).
        catalog_version (str): The catalog the price came from: a hash of its content, so any catalog change gives a new
            one.
    """

    unit: PricingSnapshotUnit
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
        unit = PricingSnapshotUnit(d.pop("unit"))

        credits_per_unit = d.pop("credits_per_unit")

        plan_multiplier = d.pop("plan_multiplier")

        catalog_version = d.pop("catalog_version")

        pricing_snapshot = cls(
            unit=unit,
            credits_per_unit=credits_per_unit,
            plan_multiplier=plan_multiplier,
            catalog_version=catalog_version,
        )

        return pricing_snapshot

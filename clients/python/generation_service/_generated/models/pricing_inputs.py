from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pricing_inputs_plan import PricingInputsPlan
from ..models.pricing_inputs_unit import PricingInputsUnit

T = TypeVar("T", bound="PricingInputs")


@_attrs_define
class PricingInputs:
    """The figures the credits were computed from: ceil(units × credits_per_unit × plan_multiplier).

    Attributes:
        unit (PricingInputsUnit): The model's pricing unit (the catalog's).
        units (float): The request's size in that unit (e.g. 1.048576 megapixels, 6 seconds).
        credits_per_unit (float): The catalog's price per unit, before the plan multiplier.
        plan (PricingInputsPlan):
        plan_multiplier (float):
    """

    unit: PricingInputsUnit
    units: float
    credits_per_unit: float
    plan: PricingInputsPlan
    plan_multiplier: float

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit.value

        units = self.units

        credits_per_unit = self.credits_per_unit

        plan = self.plan.value

        plan_multiplier = self.plan_multiplier

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "units": units,
                "credits_per_unit": credits_per_unit,
                "plan": plan,
                "plan_multiplier": plan_multiplier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        unit = PricingInputsUnit(d.pop("unit"))

        units = d.pop("units")

        credits_per_unit = d.pop("credits_per_unit")

        plan = PricingInputsPlan(d.pop("plan"))

        plan_multiplier = d.pop("plan_multiplier")

        pricing_inputs = cls(
            unit=unit,
            units=units,
            credits_per_unit=credits_per_unit,
            plan=plan,
            plan_multiplier=plan_multiplier,
        )

        return pricing_inputs

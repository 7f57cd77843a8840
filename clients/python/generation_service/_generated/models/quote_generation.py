from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pricing_inputs import PricingInputs


T = TypeVar("T", bound="QuoteGeneration")


@_attrs_define
class QuoteGeneration:
    """One generation the request would create (a comparison: one per model, in `models` order).

    Attributes:
        model (str):
        credits_ (int): What its admission would reserve (1 credit = $0.001).
        usd (float): credits in US dollars (1,000 credits = 1 USD).
        simulated (bool): Only simulated output can come (a test key, or simulated mode): reserved at 0 whatever the
            price.
        pricing (PricingInputs): The figures the credits were computed from: ceil(units × credits_per_unit ×
            plan_multiplier).
    """

    model: str
    credits_: int
    usd: float
    simulated: bool
    pricing: PricingInputs

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        credits_ = self.credits_

        usd = self.usd

        simulated = self.simulated

        pricing = self.pricing.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "credits": credits_,
                "usd": usd,
                "simulated": simulated,
                "pricing": pricing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pricing_inputs import PricingInputs

        d = dict(src_dict)
        model = d.pop("model")

        credits_ = d.pop("credits")

        usd = d.pop("usd")

        simulated = d.pop("simulated")

        pricing = PricingInputs.from_dict(d.pop("pricing"))

        quote_generation = cls(
            model=model,
            credits_=credits_,
            usd=usd,
            simulated=simulated,
            pricing=pricing,
        )

        return quote_generation

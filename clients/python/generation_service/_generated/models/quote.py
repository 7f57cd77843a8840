from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.quote_endpoint import QuoteEndpoint

if TYPE_CHECKING:
    from ..models.quote_generation import QuoteGeneration


T = TypeVar("T", bound="Quote")


@_attrs_define
class Quote:
    """
    Attributes:
        object_ (Literal['quote']):
        endpoint (QuoteEndpoint):
        credits_ (int): What the request would reserve: the sum of its generations (1 credit = $0.001).
        usd (float): credits in US dollars (1,000 credits = 1 USD).
        max_credits (int | None): The body's max_credits, if it carried one (the quote is refused 402 max_cost_exceeded
            over it).
        available_credits (int): The organization's wallet now (1 credit = $0.001).
        affordable (bool): Whether the wallet covers `credits` now; the real request is refused 402 insufficient_credits
            when it does not.
        generations (list[QuoteGeneration]):
    """

    object_: Literal["quote"]
    endpoint: QuoteEndpoint
    credits_: int
    usd: float
    max_credits: int | None
    available_credits: int
    affordable: bool
    generations: list[QuoteGeneration]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        endpoint = self.endpoint.value

        credits_ = self.credits_

        usd = self.usd

        max_credits: int | None
        max_credits = self.max_credits

        available_credits = self.available_credits

        affordable = self.affordable

        generations = []
        for generations_item_data in self.generations:
            generations_item = generations_item_data.to_dict()
            generations.append(generations_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "endpoint": endpoint,
                "credits": credits_,
                "usd": usd,
                "max_credits": max_credits,
                "available_credits": available_credits,
                "affordable": affordable,
                "generations": generations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quote_generation import QuoteGeneration

        d = dict(src_dict)
        object_ = cast(Literal["quote"], d.pop("object"))
        if object_ != "quote":
            raise ValueError(f"object must match const 'quote', got '{object_}'")

        endpoint = QuoteEndpoint(d.pop("endpoint"))

        credits_ = d.pop("credits")

        usd = d.pop("usd")

        def _parse_max_credits(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_credits = _parse_max_credits(d.pop("max_credits"))

        available_credits = d.pop("available_credits")

        affordable = d.pop("affordable")

        generations = []
        _generations = d.pop("generations")
        for generations_item_data in _generations:
            generations_item = QuoteGeneration.from_dict(generations_item_data)

            generations.append(generations_item)

        quote = cls(
            object_=object_,
            endpoint=endpoint,
            credits_=credits_,
            usd=usd,
            max_credits=max_credits,
            available_credits=available_credits,
            affordable=affordable,
            generations=generations,
        )

        return quote

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UsageRow")


@_attrs_define
class UsageRow:
    """
    Attributes:
        key (str): The group: a day (YYYY-MM-DD), a model, an API key id or a modality.
        generations (int):
        credits_charged (int): Credits charged (1 credit = $0.001).
        credits_refunded (int): Credits refunded (1 credit = $0.001).
        usd (float): credits_charged in US dollars.
    """

    key: str
    generations: int
    credits_charged: int
    credits_refunded: int
    usd: float

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        generations = self.generations

        credits_charged = self.credits_charged

        credits_refunded = self.credits_refunded

        usd = self.usd

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "generations": generations,
                "credits_charged": credits_charged,
                "credits_refunded": credits_refunded,
                "usd": usd,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        key = d.pop("key")

        generations = d.pop("generations")

        credits_charged = d.pop("credits_charged")

        credits_refunded = d.pop("credits_refunded")

        usd = d.pop("usd")

        usage_row = cls(
            key=key,
            generations=generations,
            credits_charged=credits_charged,
            credits_refunded=credits_refunded,
            usd=usd,
        )

        return usage_row

from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.balance_plan import BalancePlan

T = TypeVar("T", bound="Balance")


@_attrs_define
class Balance:
    """The wallet a key spends from; a test key sees the sandbox allowance instead, priced as live.

    Attributes:
        object_ (Literal['balance']):
        organization_id (str):
        available_credits (int): Credits that can be spent now (1 credit = $0.001).
        reserved_credits (int): Credits held by generations in flight (1 credit = $0.001).
        plan (BalancePlan):
        multiplier (float): The plan's price multiplier applied to every model's credits per unit.
        livemode (bool): false for a test key: the figures are the sandbox, not the wallet.
    """

    object_: Literal["balance"]
    organization_id: str
    available_credits: int
    reserved_credits: int
    plan: BalancePlan
    multiplier: float
    livemode: bool

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        organization_id = self.organization_id

        available_credits = self.available_credits

        reserved_credits = self.reserved_credits

        plan = self.plan.value

        multiplier = self.multiplier

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "organization_id": organization_id,
                "available_credits": available_credits,
                "reserved_credits": reserved_credits,
                "plan": plan,
                "multiplier": multiplier,
                "livemode": livemode,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["balance"], d.pop("object"))
        if object_ != "balance":
            raise ValueError(f"object must match const 'balance', got '{object_}'")

        organization_id = d.pop("organization_id")

        available_credits = d.pop("available_credits")

        reserved_credits = d.pop("reserved_credits")

        plan = BalancePlan(d.pop("plan"))

        multiplier = d.pop("multiplier")

        livemode = d.pop("livemode")

        balance = cls(
            object_=object_,
            organization_id=organization_id,
            available_credits=available_credits,
            reserved_credits=reserved_credits,
            plan=plan,
            multiplier=multiplier,
            livemode=livemode,
        )

        return balance

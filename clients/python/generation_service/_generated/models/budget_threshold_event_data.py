from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.budget_threshold_event_data_reason import BudgetThresholdEventDataReason
from ..models.budget_threshold_event_data_threshold import (
    BudgetThresholdEventDataThreshold,
)

T = TypeVar("T", bound="BudgetThresholdEventData")


@_attrs_define
class BudgetThresholdEventData:
    """
    Attributes:
        threshold (BudgetThresholdEventDataThreshold): Percent of the budget.
        reason (BudgetThresholdEventDataReason): `crossed` for 50 and 80; for 100, `reached`, or `request_refused` when
            the budget refused a request first.
        api_key_id (str):
        budget_usd (float):
        spent_usd (float): The month's spend, reservations in flight included.
        period (str): The month, `YYYY-MM`, UTC.
    """

    threshold: BudgetThresholdEventDataThreshold
    reason: BudgetThresholdEventDataReason
    api_key_id: str
    budget_usd: float
    spent_usd: float
    period: str

    def to_dict(self) -> dict[str, Any]:
        threshold = self.threshold.value

        reason = self.reason.value

        api_key_id = self.api_key_id

        budget_usd = self.budget_usd

        spent_usd = self.spent_usd

        period = self.period

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "threshold": threshold,
                "reason": reason,
                "api_key_id": api_key_id,
                "budget_usd": budget_usd,
                "spent_usd": spent_usd,
                "period": period,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        threshold = BudgetThresholdEventDataThreshold(d.pop("threshold"))

        reason = BudgetThresholdEventDataReason(d.pop("reason"))

        api_key_id = d.pop("api_key_id")

        budget_usd = d.pop("budget_usd")

        spent_usd = d.pop("spent_usd")

        period = d.pop("period")

        budget_threshold_event_data = cls(
            threshold=threshold,
            reason=reason,
            api_key_id=api_key_id,
            budget_usd=budget_usd,
            spent_usd=spent_usd,
            period=period,
        )

        return budget_threshold_event_data

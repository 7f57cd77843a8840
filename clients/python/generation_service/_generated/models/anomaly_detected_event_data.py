from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AnomalyDetectedEventData")


@_attrs_define
class AnomalyDetectedEventData:
    """
    Attributes:
        organization_id (str):
        window_spend_credits (int): Live spend in the 10-minute window (1 credit = $0.001).
        window_spend_usd (float):
        baseline_average_credits (float): The average spend per 10 minutes over the previous 7 days.
        factor (float): How many times the baseline counts as an anomaly.
        floor_credits (int): The spend below which no window is an anomaly (1 credit = $0.001).
        window_start (datetime.datetime):
        window_end (datetime.datetime):
        paused_at (datetime.datetime):
    """

    organization_id: str
    window_spend_credits: int
    window_spend_usd: float
    baseline_average_credits: float
    factor: float
    floor_credits: int
    window_start: datetime.datetime
    window_end: datetime.datetime
    paused_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        organization_id = self.organization_id

        window_spend_credits = self.window_spend_credits

        window_spend_usd = self.window_spend_usd

        baseline_average_credits = self.baseline_average_credits

        factor = self.factor

        floor_credits = self.floor_credits

        window_start = self.window_start.isoformat()

        window_end = self.window_end.isoformat()

        paused_at = self.paused_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "organization_id": organization_id,
                "window_spend_credits": window_spend_credits,
                "window_spend_usd": window_spend_usd,
                "baseline_average_credits": baseline_average_credits,
                "factor": factor,
                "floor_credits": floor_credits,
                "window_start": window_start,
                "window_end": window_end,
                "paused_at": paused_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        organization_id = d.pop("organization_id")

        window_spend_credits = d.pop("window_spend_credits")

        window_spend_usd = d.pop("window_spend_usd")

        baseline_average_credits = d.pop("baseline_average_credits")

        factor = d.pop("factor")

        floor_credits = d.pop("floor_credits")

        window_start = datetime.datetime.fromisoformat(d.pop("window_start"))

        window_end = datetime.datetime.fromisoformat(d.pop("window_end"))

        paused_at = datetime.datetime.fromisoformat(d.pop("paused_at"))

        anomaly_detected_event_data = cls(
            organization_id=organization_id,
            window_spend_credits=window_spend_credits,
            window_spend_usd=window_spend_usd,
            baseline_average_credits=baseline_average_credits,
            factor=factor,
            floor_credits=floor_credits,
            window_start=window_start,
            window_end=window_end,
            paused_at=paused_at,
        )

        return anomaly_detected_event_data

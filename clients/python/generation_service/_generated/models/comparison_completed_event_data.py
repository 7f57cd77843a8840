from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.comparison_completed_event_data_modality import (
    ComparisonCompletedEventDataModality,
)
from ..models.comparison_completed_event_data_status import (
    ComparisonCompletedEventDataStatus,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ComparisonCompletedEventData")


@_attrs_define
class ComparisonCompletedEventData:
    """
    Attributes:
        comparison_id (str):
        status (ComparisonCompletedEventDataStatus):
        modality (ComparisonCompletedEventDataModality):
        reserved_credits (int): Credits held for all models together (1 credit = $0.001).
        charged_credits (int): Credits charged, all models together (1 credit = $0.001).
        refunded_credits (int): Credits given back, all models together (1 credit = $0.001).
        generation_ids (list[str]):
        sequence (int | Unset): Grows with each status change of this generation or comparison: of two events about the
            same resource, the one with the lower sequence is stale. On every event written since the service had it
            (migration 0021); older events have none.
    """

    comparison_id: str
    status: ComparisonCompletedEventDataStatus
    modality: ComparisonCompletedEventDataModality
    reserved_credits: int
    charged_credits: int
    refunded_credits: int
    generation_ids: list[str]
    sequence: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        comparison_id = self.comparison_id

        status = self.status.value

        modality = self.modality.value

        reserved_credits = self.reserved_credits

        charged_credits = self.charged_credits

        refunded_credits = self.refunded_credits

        generation_ids = self.generation_ids

        sequence = self.sequence

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "comparison_id": comparison_id,
                "status": status,
                "modality": modality,
                "reserved_credits": reserved_credits,
                "charged_credits": charged_credits,
                "refunded_credits": refunded_credits,
                "generation_ids": generation_ids,
            }
        )
        if sequence is not UNSET:
            field_dict["sequence"] = sequence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        comparison_id = d.pop("comparison_id")

        status = ComparisonCompletedEventDataStatus(d.pop("status"))

        modality = ComparisonCompletedEventDataModality(d.pop("modality"))

        reserved_credits = d.pop("reserved_credits")

        charged_credits = d.pop("charged_credits")

        refunded_credits = d.pop("refunded_credits")

        generation_ids = cast(list[str], d.pop("generation_ids"))

        sequence = d.pop("sequence", UNSET)

        comparison_completed_event_data = cls(
            comparison_id=comparison_id,
            status=status,
            modality=modality,
            reserved_credits=reserved_credits,
            charged_credits=charged_credits,
            refunded_credits=refunded_credits,
            generation_ids=generation_ids,
            sequence=sequence,
        )

        return comparison_completed_event_data

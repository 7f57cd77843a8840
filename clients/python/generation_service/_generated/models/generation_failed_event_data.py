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

from ..models.generation_failed_event_data_modality import (
    GenerationFailedEventDataModality,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="GenerationFailedEventData")


@_attrs_define
class GenerationFailedEventData:
    """
    Attributes:
        generation_id (str):
        modality (GenerationFailedEventDataModality):
        status (Literal['failed']):
        charged_credits (int): Credits charged (1 credit = $0.001).
        sequence (int | Unset): Grows with each status change of this generation or comparison: of two events about the
            same resource, the one with the lower sequence is stale. On every event written since the service had it
            (migration 0021); older events have none.
    """

    generation_id: str
    modality: GenerationFailedEventDataModality
    status: Literal["failed"]
    charged_credits: int
    sequence: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        generation_id = self.generation_id

        modality = self.modality.value

        status = self.status

        charged_credits = self.charged_credits

        sequence = self.sequence

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generation_id": generation_id,
                "modality": modality,
                "status": status,
                "charged_credits": charged_credits,
            }
        )
        if sequence is not UNSET:
            field_dict["sequence"] = sequence

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        generation_id = d.pop("generation_id")

        modality = GenerationFailedEventDataModality(d.pop("modality"))

        status = cast(Literal["failed"], d.pop("status"))
        if status != "failed":
            raise ValueError(f"status must match const 'failed', got '{status}'")

        charged_credits = d.pop("charged_credits")

        sequence = d.pop("sequence", UNSET)

        generation_failed_event_data = cls(
            generation_id=generation_id,
            modality=modality,
            status=status,
            charged_credits=charged_credits,
            sequence=sequence,
        )

        return generation_failed_event_data

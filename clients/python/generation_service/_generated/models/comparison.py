from __future__ import annotations

import datetime
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

from ..models.comparison_modality import ComparisonModality
from ..models.comparison_status import ComparisonStatus

if TYPE_CHECKING:
    from ..models.comparison_generation import ComparisonGeneration
    from ..models.comparison_params_shared import ComparisonParamsShared


T = TypeVar("T", bound="Comparison")


@_attrs_define
class Comparison:
    """
    Attributes:
        id (str):
        object_ (Literal['comparison']):
        status (ComparisonStatus): `partial`: at least one model succeeded and at least one did not.
        modality (ComparisonModality):
        prompt (str):
        params_shared (ComparisonParamsShared): The parameters every model received.
        models (list[str]):
        reserved_credits (int): Credits held for all models together when the comparison was admitted (1 credit =
            $0.001).
        charged_credits (int): Credits charged, all models together (1 credit = $0.001).
        refunded_credits (int): Credits given back, all models together (1 credit = $0.001).
        deadline_at (datetime.datetime | None): The `Cancel-After` deadline every model shares; null without one.
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        generations (list[ComparisonGeneration]):
    """

    id: str
    object_: Literal["comparison"]
    status: ComparisonStatus
    modality: ComparisonModality
    prompt: str
    params_shared: ComparisonParamsShared
    models: list[str]
    reserved_credits: int
    charged_credits: int
    refunded_credits: int
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    generations: list[ComparisonGeneration]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        status = self.status.value

        modality = self.modality.value

        prompt = self.prompt

        params_shared = self.params_shared.to_dict()

        models = self.models

        reserved_credits = self.reserved_credits

        charged_credits = self.charged_credits

        refunded_credits = self.refunded_credits

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        generations = []
        for generations_item_data in self.generations:
            generations_item = generations_item_data.to_dict()
            generations.append(generations_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "status": status,
                "modality": modality,
                "prompt": prompt,
                "params_shared": params_shared,
                "models": models,
                "reserved_credits": reserved_credits,
                "charged_credits": charged_credits,
                "refunded_credits": refunded_credits,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "finished_at": finished_at,
                "generations": generations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.comparison_generation import ComparisonGeneration
        from ..models.comparison_params_shared import ComparisonParamsShared

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["comparison"], d.pop("object"))
        if object_ != "comparison":
            raise ValueError(f"object must match const 'comparison', got '{object_}'")

        status = ComparisonStatus(d.pop("status"))

        modality = ComparisonModality(d.pop("modality"))

        prompt = d.pop("prompt")

        params_shared = ComparisonParamsShared.from_dict(d.pop("params_shared"))

        models = cast(list[str], d.pop("models"))

        reserved_credits = d.pop("reserved_credits")

        charged_credits = d.pop("charged_credits")

        refunded_credits = d.pop("refunded_credits")

        def _parse_deadline_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_at_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline_at = _parse_deadline_at(d.pop("deadline_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        generations = []
        _generations = d.pop("generations")
        for generations_item_data in _generations:
            generations_item = ComparisonGeneration.from_dict(generations_item_data)

            generations.append(generations_item)

        comparison = cls(
            id=id,
            object_=object_,
            status=status,
            modality=modality,
            prompt=prompt,
            params_shared=params_shared,
            models=models,
            reserved_credits=reserved_credits,
            charged_credits=charged_credits,
            refunded_credits=refunded_credits,
            deadline_at=deadline_at,
            created_at=created_at,
            finished_at=finished_at,
            generations=generations,
        )

        return comparison

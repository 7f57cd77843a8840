from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.comparison_generation_status import ComparisonGenerationStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.comparison_generation_usage import ComparisonGenerationUsage
    from ..models.generation_output import GenerationOutput


T = TypeVar("T", bound="ComparisonGeneration")


@_attrs_define
class ComparisonGeneration:
    """One model's generation within a comparison; GET /v1/generations/{id} has all of it.

    Attributes:
        id (str):
        model (str):
        status (ComparisonGenerationStatus):
        charged_credits (int): Credits charged for this model (1 credit = $0.001).
        refunded_credits (int): Credits given back for this model (1 credit = $0.001).
        error_code (None | str):
        outputs (list[GenerationOutput]):
        error_message (None | str | Unset):
        text (str | Unset):
        usage (ComparisonGenerationUsage | Unset):
    """

    id: str
    model: str
    status: ComparisonGenerationStatus
    charged_credits: int
    refunded_credits: int
    error_code: None | str
    outputs: list[GenerationOutput]
    error_message: None | str | Unset = UNSET
    text: str | Unset = UNSET
    usage: ComparisonGenerationUsage | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        model = self.model

        status = self.status.value

        charged_credits = self.charged_credits

        refunded_credits = self.refunded_credits

        error_code: None | str
        error_code = self.error_code

        outputs = []
        for outputs_item_data in self.outputs:
            outputs_item = outputs_item_data.to_dict()
            outputs.append(outputs_item)

        error_message: None | str | Unset
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        text = self.text

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "model": model,
                "status": status,
                "charged_credits": charged_credits,
                "refunded_credits": refunded_credits,
                "error_code": error_code,
                "outputs": outputs,
            }
        )
        if error_message is not UNSET:
            field_dict["error_message"] = error_message
        if text is not UNSET:
            field_dict["text"] = text
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.comparison_generation_usage import ComparisonGenerationUsage
        from ..models.generation_output import GenerationOutput

        d = dict(src_dict)
        id = d.pop("id")

        model = d.pop("model")

        status = ComparisonGenerationStatus(d.pop("status"))

        charged_credits = d.pop("charged_credits")

        refunded_credits = d.pop("refunded_credits")

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        outputs = []
        _outputs = d.pop("outputs")
        for outputs_item_data in _outputs:
            outputs_item = GenerationOutput.from_dict(outputs_item_data)

            outputs.append(outputs_item)

        def _parse_error_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_message = _parse_error_message(d.pop("error_message", UNSET))

        text = d.pop("text", UNSET)

        _usage = d.pop("usage", UNSET)
        usage: ComparisonGenerationUsage | Unset
        if isinstance(_usage, Unset):
            usage = UNSET
        else:
            usage = ComparisonGenerationUsage.from_dict(_usage)

        comparison_generation = cls(
            id=id,
            model=model,
            status=status,
            charged_credits=charged_credits,
            refunded_credits=refunded_credits,
            error_code=error_code,
            outputs=outputs,
            error_message=error_message,
            text=text,
            usage=usage,
        )

        return comparison_generation

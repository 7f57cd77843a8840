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

from ..models.generation_error_source import GenerationErrorSource
from ..models.generation_modality import GenerationModality
from ..models.generation_status import GenerationStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.generation_output import GenerationOutput
    from ..models.generation_params import GenerationParams
    from ..models.generation_usage import GenerationUsage
    from ..models.pricing_snapshot import PricingSnapshot
    from ..models.provider_attempt import ProviderAttempt


T = TypeVar("T", bound="Generation")


@_attrs_define
class Generation:
    """
    Attributes:
        id (str):
        object_ (Literal['generation']):
        status (GenerationStatus):
        modality (GenerationModality):
        model (str):
        api_key_id (str): The API key that created it.
        prompt (str):
        params (GenerationParams): The request parameters besides `model` and `prompt`, as accepted.
        reserved_credits (int): Credits held when the generation was admitted (1 credit = $0.001).
        charged_credits (int): Credits charged; at most what was reserved (1 credit = $0.001).
        refunded_credits (int): Credits given back; reserved = charged + refunded once the generation is finished (1
            credit = $0.001).
        cache_hit (bool): Served from an earlier identical generation, for 0 credits.
        pricing (None | PricingSnapshot): The price it was admitted at and is charged at; null for generations from
            before price snapshots were recorded.
        outputs (list[GenerationOutput]):
        provider (None | str): The provider that served it (provenance); null unless succeeded.
        provider_model (None | str): The provider's model that served it; null unless succeeded.
        attempts (list[ProviderAttempt]): Every provider call that ended, in order.
        deadline_at (datetime.datetime | None): When its `Cancel-After` deadline passes (the job is then canceled); null
            without one.
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        comparison_id (str | Unset): The comparison this generation belongs to, if any.
        error_code (None | str | Unset): Why it failed (failed generations), or `deadline_exceeded` on one its `Cancel-
            After` deadline canceled.
        error_message (None | str | Unset):
        error_source (GenerationErrorSource | Unset): `provider`, or `gateway` when the failure was ours.
        retryable (bool | Unset): Whether sending the same request again may succeed.
        usage (GenerationUsage | Unset): What the provider counted.
        text (str | Unset): Chat's answer, or a transcription's text.
    """

    id: str
    object_: Literal["generation"]
    status: GenerationStatus
    modality: GenerationModality
    model: str
    api_key_id: str
    prompt: str
    params: GenerationParams
    reserved_credits: int
    charged_credits: int
    refunded_credits: int
    cache_hit: bool
    pricing: None | PricingSnapshot
    outputs: list[GenerationOutput]
    provider: None | str
    provider_model: None | str
    attempts: list[ProviderAttempt]
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    comparison_id: str | Unset = UNSET
    error_code: None | str | Unset = UNSET
    error_message: None | str | Unset = UNSET
    error_source: GenerationErrorSource | Unset = UNSET
    retryable: bool | Unset = UNSET
    usage: GenerationUsage | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.pricing_snapshot import PricingSnapshot

        id = self.id

        object_ = self.object_

        status = self.status.value

        modality = self.modality.value

        model = self.model

        api_key_id = self.api_key_id

        prompt = self.prompt

        params = self.params.to_dict()

        reserved_credits = self.reserved_credits

        charged_credits = self.charged_credits

        refunded_credits = self.refunded_credits

        cache_hit = self.cache_hit

        pricing: dict[str, Any] | None
        if isinstance(self.pricing, PricingSnapshot):
            pricing = self.pricing.to_dict()
        else:
            pricing = self.pricing

        outputs = []
        for outputs_item_data in self.outputs:
            outputs_item = outputs_item_data.to_dict()
            outputs.append(outputs_item)

        provider: None | str
        provider = self.provider

        provider_model: None | str
        provider_model = self.provider_model

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

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

        comparison_id = self.comparison_id

        error_code: None | str | Unset
        if isinstance(self.error_code, Unset):
            error_code = UNSET
        else:
            error_code = self.error_code

        error_message: None | str | Unset
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        error_source: str | Unset = UNSET
        if not isinstance(self.error_source, Unset):
            error_source = self.error_source.value

        retryable = self.retryable

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "status": status,
                "modality": modality,
                "model": model,
                "api_key_id": api_key_id,
                "prompt": prompt,
                "params": params,
                "reserved_credits": reserved_credits,
                "charged_credits": charged_credits,
                "refunded_credits": refunded_credits,
                "cache_hit": cache_hit,
                "pricing": pricing,
                "outputs": outputs,
                "provider": provider,
                "provider_model": provider_model,
                "attempts": attempts,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "finished_at": finished_at,
            }
        )
        if comparison_id is not UNSET:
            field_dict["comparison_id"] = comparison_id
        if error_code is not UNSET:
            field_dict["error_code"] = error_code
        if error_message is not UNSET:
            field_dict["error_message"] = error_message
        if error_source is not UNSET:
            field_dict["error_source"] = error_source
        if retryable is not UNSET:
            field_dict["retryable"] = retryable
        if usage is not UNSET:
            field_dict["usage"] = usage
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.generation_output import GenerationOutput
        from ..models.generation_params import GenerationParams
        from ..models.generation_usage import GenerationUsage
        from ..models.pricing_snapshot import PricingSnapshot
        from ..models.provider_attempt import ProviderAttempt

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["generation"], d.pop("object"))
        if object_ != "generation":
            raise ValueError(f"object must match const 'generation', got '{object_}'")

        status = GenerationStatus(d.pop("status"))

        modality = GenerationModality(d.pop("modality"))

        model = d.pop("model")

        api_key_id = d.pop("api_key_id")

        prompt = d.pop("prompt")

        params = GenerationParams.from_dict(d.pop("params"))

        reserved_credits = d.pop("reserved_credits")

        charged_credits = d.pop("charged_credits")

        refunded_credits = d.pop("refunded_credits")

        cache_hit = d.pop("cache_hit")

        def _parse_pricing(data: object) -> None | PricingSnapshot:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pricing_type_0 = PricingSnapshot.from_dict(data)

                return pricing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PricingSnapshot, data)

        pricing = _parse_pricing(d.pop("pricing"))

        outputs = []
        _outputs = d.pop("outputs")
        for outputs_item_data in _outputs:
            outputs_item = GenerationOutput.from_dict(outputs_item_data)

            outputs.append(outputs_item)

        def _parse_provider(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider = _parse_provider(d.pop("provider"))

        def _parse_provider_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_model = _parse_provider_model(d.pop("provider_model"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = ProviderAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

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

        comparison_id = d.pop("comparison_id", UNSET)

        def _parse_error_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_code = _parse_error_code(d.pop("error_code", UNSET))

        def _parse_error_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_message = _parse_error_message(d.pop("error_message", UNSET))

        _error_source = d.pop("error_source", UNSET)
        error_source: GenerationErrorSource | Unset
        if isinstance(_error_source, Unset):
            error_source = UNSET
        else:
            error_source = GenerationErrorSource(_error_source)

        retryable = d.pop("retryable", UNSET)

        _usage = d.pop("usage", UNSET)
        usage: GenerationUsage | Unset
        if isinstance(_usage, Unset):
            usage = UNSET
        else:
            usage = GenerationUsage.from_dict(_usage)

        text = d.pop("text", UNSET)

        generation = cls(
            id=id,
            object_=object_,
            status=status,
            modality=modality,
            model=model,
            api_key_id=api_key_id,
            prompt=prompt,
            params=params,
            reserved_credits=reserved_credits,
            charged_credits=charged_credits,
            refunded_credits=refunded_credits,
            cache_hit=cache_hit,
            pricing=pricing,
            outputs=outputs,
            provider=provider,
            provider_model=provider_model,
            attempts=attempts,
            deadline_at=deadline_at,
            created_at=created_at,
            finished_at=finished_at,
            comparison_id=comparison_id,
            error_code=error_code,
            error_message=error_message,
            error_source=error_source,
            retryable=retryable,
            usage=usage,
            text=text,
        )

        return generation

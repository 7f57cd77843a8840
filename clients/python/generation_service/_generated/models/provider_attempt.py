from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.provider_attempt_outcome import ProviderAttemptOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProviderAttempt")


@_attrs_define
class ProviderAttempt:
    """One provider call that ended (provenance).

    Attributes:
        provider (str):
        model (str): The provider's own model name.
        outcome (ProviderAttemptOutcome): `canceled`: the generation was cancelled while the call ran.
        duration_ms (int):
        error_code (str | Unset):
    """

    provider: str
    model: str
    outcome: ProviderAttemptOutcome
    duration_ms: int
    error_code: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        model = self.model

        outcome = self.outcome.value

        duration_ms = self.duration_ms

        error_code = self.error_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "model": model,
                "outcome": outcome,
                "duration_ms": duration_ms,
            }
        )
        if error_code is not UNSET:
            field_dict["error_code"] = error_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = d.pop("provider")

        model = d.pop("model")

        outcome = ProviderAttemptOutcome(d.pop("outcome"))

        duration_ms = d.pop("duration_ms")

        error_code = d.pop("error_code", UNSET)

        provider_attempt = cls(
            provider=provider,
            model=model,
            outcome=outcome,
            duration_ms=duration_ms,
            error_code=error_code,
        )

        return provider_attempt

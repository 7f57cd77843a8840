from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ModelLimits")


@_attrs_define
class ModelLimits:
    """
    Attributes:
        max_outputs (int | Unset):
        min_duration_s (float | Unset):
        max_duration_s (float | Unset):
        durations_s (list[float] | Unset):
        aspect_ratios (list[str] | Unset):
        max_text_chars (int | Unset):
        max_audio_s (float | Unset):
        context_tokens (int | Unset):
        max_output_tokens (int | Unset):
        scale_factors (list[float] | Unset):
        max_input_mpx (float | Unset):
    """

    max_outputs: int | Unset = UNSET
    min_duration_s: float | Unset = UNSET
    max_duration_s: float | Unset = UNSET
    durations_s: list[float] | Unset = UNSET
    aspect_ratios: list[str] | Unset = UNSET
    max_text_chars: int | Unset = UNSET
    max_audio_s: float | Unset = UNSET
    context_tokens: int | Unset = UNSET
    max_output_tokens: int | Unset = UNSET
    scale_factors: list[float] | Unset = UNSET
    max_input_mpx: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        max_outputs = self.max_outputs

        min_duration_s = self.min_duration_s

        max_duration_s = self.max_duration_s

        durations_s: list[float] | Unset = UNSET
        if not isinstance(self.durations_s, Unset):
            durations_s = self.durations_s

        aspect_ratios: list[str] | Unset = UNSET
        if not isinstance(self.aspect_ratios, Unset):
            aspect_ratios = self.aspect_ratios

        max_text_chars = self.max_text_chars

        max_audio_s = self.max_audio_s

        context_tokens = self.context_tokens

        max_output_tokens = self.max_output_tokens

        scale_factors: list[float] | Unset = UNSET
        if not isinstance(self.scale_factors, Unset):
            scale_factors = self.scale_factors

        max_input_mpx = self.max_input_mpx

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if max_outputs is not UNSET:
            field_dict["max_outputs"] = max_outputs
        if min_duration_s is not UNSET:
            field_dict["min_duration_s"] = min_duration_s
        if max_duration_s is not UNSET:
            field_dict["max_duration_s"] = max_duration_s
        if durations_s is not UNSET:
            field_dict["durations_s"] = durations_s
        if aspect_ratios is not UNSET:
            field_dict["aspect_ratios"] = aspect_ratios
        if max_text_chars is not UNSET:
            field_dict["max_text_chars"] = max_text_chars
        if max_audio_s is not UNSET:
            field_dict["max_audio_s"] = max_audio_s
        if context_tokens is not UNSET:
            field_dict["context_tokens"] = context_tokens
        if max_output_tokens is not UNSET:
            field_dict["max_output_tokens"] = max_output_tokens
        if scale_factors is not UNSET:
            field_dict["scale_factors"] = scale_factors
        if max_input_mpx is not UNSET:
            field_dict["max_input_mpx"] = max_input_mpx

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_outputs = d.pop("max_outputs", UNSET)

        min_duration_s = d.pop("min_duration_s", UNSET)

        max_duration_s = d.pop("max_duration_s", UNSET)

        durations_s = cast(list[float], d.pop("durations_s", UNSET))

        aspect_ratios = cast(list[str], d.pop("aspect_ratios", UNSET))

        max_text_chars = d.pop("max_text_chars", UNSET)

        max_audio_s = d.pop("max_audio_s", UNSET)

        context_tokens = d.pop("context_tokens", UNSET)

        max_output_tokens = d.pop("max_output_tokens", UNSET)

        scale_factors = cast(list[float], d.pop("scale_factors", UNSET))

        max_input_mpx = d.pop("max_input_mpx", UNSET)

        model_limits = cls(
            max_outputs=max_outputs,
            min_duration_s=min_duration_s,
            max_duration_s=max_duration_s,
            durations_s=durations_s,
            aspect_ratios=aspect_ratios,
            max_text_chars=max_text_chars,
            max_audio_s=max_audio_s,
            context_tokens=context_tokens,
            max_output_tokens=max_output_tokens,
            scale_factors=scale_factors,
            max_input_mpx=max_input_mpx,
        )

        return model_limits

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GenerationUsage")


@_attrs_define
class GenerationUsage:
    """What the provider counted.

    Attributes:
        input_tokens (int | Unset):
        output_tokens (int | Unset):
        output_tokens_estimated (bool | Unset): Present when the provider reported no output count: `output_tokens` was
            counted with a tokenizer and charged on that.
    """

    input_tokens: int | Unset = UNSET
    output_tokens: int | Unset = UNSET
    output_tokens_estimated: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_tokens = self.input_tokens

        output_tokens = self.output_tokens

        output_tokens_estimated = self.output_tokens_estimated

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if input_tokens is not UNSET:
            field_dict["input_tokens"] = input_tokens
        if output_tokens is not UNSET:
            field_dict["output_tokens"] = output_tokens
        if output_tokens_estimated is not UNSET:
            field_dict["output_tokens_estimated"] = output_tokens_estimated

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        input_tokens = d.pop("input_tokens", UNSET)

        output_tokens = d.pop("output_tokens", UNSET)

        output_tokens_estimated = d.pop("output_tokens_estimated", UNSET)

        generation_usage = cls(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            output_tokens_estimated=output_tokens_estimated,
        )

        return generation_usage

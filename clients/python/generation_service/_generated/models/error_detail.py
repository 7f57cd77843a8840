from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ErrorDetail")


@_attrs_define
class ErrorDetail:
    """
    Attributes:
        param (str):
        message (str):
    """

    param: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        param = self.param

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "param": param,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        param = d.pop("param")

        message = d.pop("message")

        error_detail = cls(
            param=param,
            message=message,
        )

        return error_detail

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_ai_error_error_code import OpenAiErrorErrorCode
from ..models.open_ai_error_error_type import OpenAiErrorErrorType

T = TypeVar("T", bound="OpenAiErrorError")


@_attrs_define
class OpenAiErrorError:
    """
    Attributes:
        message (str): What went wrong and what to do, for a person.
        type_ (OpenAiErrorErrorType):
        param (None | str): The parameter at fault, when one is.
        code (OpenAiErrorErrorCode):
    """

    message: str
    type_: OpenAiErrorErrorType
    param: None | str
    code: OpenAiErrorErrorCode
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        type_ = self.type_.value

        param: None | str
        param = self.param

        code = self.code.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "type": type_,
                "param": param,
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message = d.pop("message")

        type_ = OpenAiErrorErrorType(d.pop("type"))

        def _parse_param(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        param = _parse_param(d.pop("param"))

        code = OpenAiErrorErrorCode(d.pop("code"))

        open_ai_error_error = cls(
            message=message,
            type_=type_,
            param=param,
            code=code,
        )

        open_ai_error_error.additional_properties = d
        return open_ai_error_error

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

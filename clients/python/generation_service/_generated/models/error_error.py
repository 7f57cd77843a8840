from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.error_error_code import ErrorErrorCode
from ..models.error_error_type import ErrorErrorType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_detail import ErrorDetail


T = TypeVar("T", bound="ErrorError")


@_attrs_define
class ErrorError:
    """
    Attributes:
        type_ (ErrorErrorType):
        code (ErrorErrorCode):
        message (str): What went wrong and what to do, for a person.
        request_id (str):
        param (str | Unset): The parameter at fault, when one is.
        details (list[ErrorDetail] | Unset): Every fault found, when there are several.
    """

    type_: ErrorErrorType
    code: ErrorErrorCode
    message: str
    request_id: str
    param: str | Unset = UNSET
    details: list[ErrorDetail] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        code = self.code.value

        message = self.message

        request_id = self.request_id

        param = self.param

        details: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = []
            for details_item_data in self.details:
                details_item = details_item_data.to_dict()
                details.append(details_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "code": code,
                "message": message,
                "request_id": request_id,
            }
        )
        if param is not UNSET:
            field_dict["param"] = param
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_detail import ErrorDetail

        d = dict(src_dict)
        type_ = ErrorErrorType(d.pop("type"))

        code = ErrorErrorCode(d.pop("code"))

        message = d.pop("message")

        request_id = d.pop("request_id")

        param = d.pop("param", UNSET)

        _details = d.pop("details", UNSET)
        details: list[ErrorDetail] | Unset = UNSET
        if _details is not UNSET:
            details = []
            for details_item_data in _details:
                details_item = ErrorDetail.from_dict(details_item_data)

                details.append(details_item)

        error_error = cls(
            type_=type_,
            code=code,
            message=message,
            request_id=request_id,
            param=param,
            details=details,
        )

        return error_error

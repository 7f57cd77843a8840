from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_limit_reached_error_error_code import (
    WebhookLimitReachedErrorErrorCode,
)
from ..models.webhook_limit_reached_error_error_type import (
    WebhookLimitReachedErrorErrorType,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookLimitReachedErrorError")


@_attrs_define
class WebhookLimitReachedErrorError:
    """
    Attributes:
        type_ (WebhookLimitReachedErrorErrorType | Unset):
        code (WebhookLimitReachedErrorErrorCode | Unset):
    """

    type_: WebhookLimitReachedErrorErrorType | Unset = UNSET
    code: WebhookLimitReachedErrorErrorCode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        code: str | Unset = UNSET
        if not isinstance(self.code, Unset):
            code = self.code.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if code is not UNSET:
            field_dict["code"] = code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _type_ = d.pop("type", UNSET)
        type_: WebhookLimitReachedErrorErrorType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = WebhookLimitReachedErrorErrorType(_type_)

        _code = d.pop("code", UNSET)
        code: WebhookLimitReachedErrorErrorCode | Unset
        if isinstance(_code, Unset):
            code = UNSET
        else:
            code = WebhookLimitReachedErrorErrorCode(_code)

        webhook_limit_reached_error_error = cls(
            type_=type_,
            code=code,
        )

        webhook_limit_reached_error_error.additional_properties = d
        return webhook_limit_reached_error_error

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

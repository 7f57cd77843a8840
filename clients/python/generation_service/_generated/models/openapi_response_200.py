from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.openapi_response_200_info import OpenapiResponse200Info
    from ..models.openapi_response_200_paths import OpenapiResponse200Paths


T = TypeVar("T", bound="OpenapiResponse200")


@_attrs_define
class OpenapiResponse200:
    """
    Attributes:
        openapi (str):
        info (OpenapiResponse200Info):
        paths (OpenapiResponse200Paths):
    """

    openapi: str
    info: OpenapiResponse200Info
    paths: OpenapiResponse200Paths
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        openapi = self.openapi

        info = self.info.to_dict()

        paths = self.paths.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "openapi": openapi,
                "info": info,
                "paths": paths,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.openapi_response_200_info import OpenapiResponse200Info
        from ..models.openapi_response_200_paths import OpenapiResponse200Paths

        d = dict(src_dict)
        openapi = d.pop("openapi")

        info = OpenapiResponse200Info.from_dict(d.pop("info"))

        paths = OpenapiResponse200Paths.from_dict(d.pop("paths"))

        openapi_response_200 = cls(
            openapi=openapi,
            info=info,
            paths=paths,
        )

        openapi_response_200.additional_properties = d
        return openapi_response_200

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

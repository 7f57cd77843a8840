from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_upload_body_content_type import CreateUploadBodyContentType

T = TypeVar("T", bound="CreateUploadBody")


@_attrs_define
class CreateUploadBody:
    """
    Attributes:
        filename (str):
        content_type (CreateUploadBodyContentType):
        size_bytes (int):
    """

    filename: str
    content_type: CreateUploadBodyContentType
    size_bytes: int

    def to_dict(self) -> dict[str, Any]:
        filename = self.filename

        content_type = self.content_type.value

        size_bytes = self.size_bytes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "filename": filename,
                "content_type": content_type,
                "size_bytes": size_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        filename = d.pop("filename")

        content_type = CreateUploadBodyContentType(d.pop("content_type"))

        size_bytes = d.pop("size_bytes")

        create_upload_body = cls(
            filename=filename,
            content_type=content_type,
            size_bytes=size_bytes,
        )

        return create_upload_body

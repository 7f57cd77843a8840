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

from ..models.upload_content_type import UploadContentType

if TYPE_CHECKING:
    from ..models.upload_headers import UploadHeaders


T = TypeVar("T", bound="Upload")


@_attrs_define
class Upload:
    """
    Attributes:
        id (str):
        object_ (Literal['upload']):
        upload_url (str): Send the bytes here, with `method` and `headers`, before `expires_at`.
        method (Literal['PUT']):
        headers (UploadHeaders): Headers the PUT must carry.
        expires_at (datetime.datetime):
        file_url (str): What to pass as `image_url` once the bytes are uploaded.
        filename (str):
        content_type (UploadContentType):
        size_bytes (int):
        created_at (datetime.datetime):
    """

    id: str
    object_: Literal["upload"]
    upload_url: str
    method: Literal["PUT"]
    headers: UploadHeaders
    expires_at: datetime.datetime
    file_url: str
    filename: str
    content_type: UploadContentType
    size_bytes: int
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        upload_url = self.upload_url

        method = self.method

        headers = self.headers.to_dict()

        expires_at = self.expires_at.isoformat()

        file_url = self.file_url

        filename = self.filename

        content_type = self.content_type.value

        size_bytes = self.size_bytes

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "upload_url": upload_url,
                "method": method,
                "headers": headers,
                "expires_at": expires_at,
                "file_url": file_url,
                "filename": filename,
                "content_type": content_type,
                "size_bytes": size_bytes,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.upload_headers import UploadHeaders

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["upload"], d.pop("object"))
        if object_ != "upload":
            raise ValueError(f"object must match const 'upload', got '{object_}'")

        upload_url = d.pop("upload_url")

        method = cast(Literal["PUT"], d.pop("method"))
        if method != "PUT":
            raise ValueError(f"method must match const 'PUT', got '{method}'")

        headers = UploadHeaders.from_dict(d.pop("headers"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        file_url = d.pop("file_url")

        filename = d.pop("filename")

        content_type = UploadContentType(d.pop("content_type"))

        size_bytes = d.pop("size_bytes")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        upload = cls(
            id=id,
            object_=object_,
            upload_url=upload_url,
            method=method,
            headers=headers,
            expires_at=expires_at,
            file_url=file_url,
            filename=filename,
            content_type=content_type,
            size_bytes=size_bytes,
            created_at=created_at,
        )

        return upload

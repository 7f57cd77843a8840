from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GenerationOutput")


@_attrs_define
class GenerationOutput:
    """
    Attributes:
        id (str):
        url (str): A signed URL to download the file; it expires, so fetch the generation again for a fresh one. Past
            `expires_at`, or once deleted, it answers 410 `output_expired`.
        mime (str):
        expires_at (datetime.datetime | None): When the file is deleted (the request's `retention`, else the
            organization's default); null: kept until deleted (`forever`, or made before retention existed).
        deleted_at (datetime.datetime | None): When the file was deleted (expiry, or DELETE
            /v1/generations/{id}/outputs); the generation record stays.
        width (int | Unset):
        height (int | Unset):
        duration_s (str | Unset): The length in seconds, as a decimal string (e.g. "12.5").
    """

    id: str
    url: str
    mime: str
    expires_at: datetime.datetime | None
    deleted_at: datetime.datetime | None
    width: int | Unset = UNSET
    height: int | Unset = UNSET
    duration_s: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        mime = self.mime

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        deleted_at: None | str
        if isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        width = self.width

        height = self.height

        duration_s = self.duration_s

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "mime": mime,
                "expires_at": expires_at,
                "deleted_at": deleted_at,
            }
        )
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if duration_s is not UNSET:
            field_dict["duration_s"] = duration_s

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        mime = d.pop("mime")

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        def _parse_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deleted_at = _parse_deleted_at(d.pop("deleted_at"))

        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        duration_s = d.pop("duration_s", UNSET)

        generation_output = cls(
            id=id,
            url=url,
            mime=mime,
            expires_at=expires_at,
            deleted_at=deleted_at,
            width=width,
            height=height,
            duration_s=duration_s,
        )

        return generation_output

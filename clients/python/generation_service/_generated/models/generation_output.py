from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GenerationOutput")


@_attrs_define
class GenerationOutput:
    """
    Attributes:
        id (str):
        url (str): A signed URL to download the file; it expires, so fetch the generation again for a fresh one.
        mime (str):
        width (int | Unset):
        height (int | Unset):
        duration_s (str | Unset): The length in seconds, as a decimal string (e.g. "12.5").
    """

    id: str
    url: str
    mime: str
    width: int | Unset = UNSET
    height: int | Unset = UNSET
    duration_s: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        mime = self.mime

        width = self.width

        height = self.height

        duration_s = self.duration_s

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "mime": mime,
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

        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        duration_s = d.pop("duration_s", UNSET)

        generation_output = cls(
            id=id,
            url=url,
            mime=mime,
            width=width,
            height=height,
            duration_s=duration_s,
        )

        return generation_output

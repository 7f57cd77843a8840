from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_quote_body_endpoint import CreateQuoteBodyEndpoint

if TYPE_CHECKING:
    from ..models.create_quote_body_body import CreateQuoteBodyBody


T = TypeVar("T", bound="CreateQuoteBody")


@_attrs_define
class CreateQuoteBody:
    """
    Attributes:
        endpoint (CreateQuoteBodyEndpoint):
        body (CreateQuoteBodyBody):
    """

    endpoint: CreateQuoteBodyEndpoint
    body: CreateQuoteBodyBody

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint.value

        body = self.body.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint": endpoint,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_quote_body_body import CreateQuoteBodyBody

        d = dict(src_dict)
        endpoint = CreateQuoteBodyEndpoint(d.pop("endpoint"))

        body = CreateQuoteBodyBody.from_dict(d.pop("body"))

        create_quote_body = cls(
            endpoint=endpoint,
            body=body,
        )

        return create_quote_body

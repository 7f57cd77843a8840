from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.create_webhook_body_events_type_0_item import (
    CreateWebhookBodyEventsType0Item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookBody")


@_attrs_define
class CreateWebhookBody:
    """
    Attributes:
        url (str):
        events (list[CreateWebhookBodyEventsType0Item] | Literal['*']):
        description (str | Unset):
        max_deliveries_per_second (float | None | Unset): At most this many deliveries a second (0.01 to 1000);
            deliveries above it wait for their turn. Null: unlimited.
    """

    url: str
    events: list[CreateWebhookBodyEventsType0Item] | Literal["*"]
    description: str | Unset = UNSET
    max_deliveries_per_second: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Literal["*"]
        if isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item = events_type_0_item_data.value
                events.append(events_type_0_item)

        else:
            events = self.events

        description = self.description

        max_deliveries_per_second: float | None | Unset
        if isinstance(self.max_deliveries_per_second, Unset):
            max_deliveries_per_second = UNSET
        else:
            max_deliveries_per_second = self.max_deliveries_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "events": events,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if max_deliveries_per_second is not UNSET:
            field_dict["max_deliveries_per_second"] = max_deliveries_per_second

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_events(data: object) -> list[CreateWebhookBodyEventsType0Item] | Literal["*"]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in _events_type_0:
                    events_type_0_item = CreateWebhookBodyEventsType0Item(events_type_0_item_data)

                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            events_type_1 = cast(Literal["*"], data)
            if events_type_1 != "*":
                raise ValueError(f"events_type_1 must match const '*', got '{events_type_1}'")
            return events_type_1

        events = _parse_events(d.pop("events"))

        description = d.pop("description", UNSET)

        def _parse_max_deliveries_per_second(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_deliveries_per_second = _parse_max_deliveries_per_second(d.pop("max_deliveries_per_second", UNSET))

        create_webhook_body = cls(
            url=url,
            events=events,
            description=description,
            max_deliveries_per_second=max_deliveries_per_second,
        )

        return create_webhook_body

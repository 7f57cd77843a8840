from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.webhook_events_item import WebhookEventsItem

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        id (str):
        object_ (Literal['webhook']):
        url (str):
        events (list[WebhookEventsItem]): `*` subscribes to every type, including types added later.
        description (None | str):
        created_at (datetime.datetime):
        previous_secret_expires_at (datetime.datetime | None): After a rotation, until when deliveries also carry a
            signature made with the previous secret.
    """

    id: str
    object_: Literal["webhook"]
    url: str
    events: list[WebhookEventsItem]
    description: None | str
    created_at: datetime.datetime
    previous_secret_expires_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description: None | str
        description = self.description

        created_at = self.created_at.isoformat()

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "url": url,
                "events": events,
                "description": description,
                "created_at": created_at,
                "previous_secret_expires_at": previous_secret_expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["webhook"], d.pop("object"))
        if object_ != "webhook":
            raise ValueError(f"object must match const 'webhook', got '{object_}'")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = WebhookEventsItem(events_item_data)

            events.append(events_item)

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previous_secret_expires_at"))

        webhook = cls(
            id=id,
            object_=object_,
            url=url,
            events=events,
            description=description,
            created_at=created_at,
            previous_secret_expires_at=previous_secret_expires_at,
        )

        return webhook

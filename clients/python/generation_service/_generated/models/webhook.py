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
from ..models.webhook_status import WebhookStatus

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
        status (WebhookStatus): `disabled`: nothing is sent to it (a 410 Gone, or every delivery failed for
            `WEBHOOK_DISABLE_AFTER`) until it is enabled again.
        disabled_reason (None | str): Why it is disabled; null while enabled.
        last_success_at (datetime.datetime | None): Its last delivery the receiver accepted (to the second).
        failing_since (datetime.datetime | None): Since when every attempt has failed; null after a success.
        max_deliveries_per_second (float | None): At most this many deliveries a second; deliveries above it wait for
            their turn. Null: unlimited.
    """

    id: str
    object_: Literal["webhook"]
    url: str
    events: list[WebhookEventsItem]
    description: None | str
    created_at: datetime.datetime
    previous_secret_expires_at: datetime.datetime | None
    status: WebhookStatus
    disabled_reason: None | str
    last_success_at: datetime.datetime | None
    failing_since: datetime.datetime | None
    max_deliveries_per_second: float | None

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

        status = self.status.value

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        max_deliveries_per_second: float | None
        max_deliveries_per_second = self.max_deliveries_per_second

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
                "status": status,
                "disabled_reason": disabled_reason,
                "last_success_at": last_success_at,
                "failing_since": failing_since,
                "max_deliveries_per_second": max_deliveries_per_second,
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

        status = WebhookStatus(d.pop("status"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))

        def _parse_max_deliveries_per_second(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_deliveries_per_second = _parse_max_deliveries_per_second(d.pop("max_deliveries_per_second"))

        webhook = cls(
            id=id,
            object_=object_,
            url=url,
            events=events,
            description=description,
            created_at=created_at,
            previous_secret_expires_at=previous_secret_expires_at,
            status=status,
            disabled_reason=disabled_reason,
            last_success_at=last_success_at,
            failing_since=failing_since,
            max_deliveries_per_second=max_deliveries_per_second,
        )

        return webhook

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

from ..models.webhook_delivery_event_type import WebhookDeliveryEventType
from ..models.webhook_delivery_status import WebhookDeliveryStatus

if TYPE_CHECKING:
    from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        id (str):
        object_ (Literal['webhook_delivery']):
        webhook_id (str):
        event_id (str):
        event_type (WebhookDeliveryEventType):
        status (WebhookDeliveryStatus): `exhausted`: every retry failed.
        attempt_count (int):
        next_attempt_at (datetime.datetime | None):
        replay_of (None | str): The delivery this one replays, if it is a replay.
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        attempts (list[WebhookDeliveryAttempt]):
    """

    id: str
    object_: Literal["webhook_delivery"]
    webhook_id: str
    event_id: str
    event_type: WebhookDeliveryEventType
    status: WebhookDeliveryStatus
    attempt_count: int
    next_attempt_at: datetime.datetime | None
    replay_of: None | str
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    attempts: list[WebhookDeliveryAttempt]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        webhook_id = self.webhook_id

        event_id = self.event_id

        event_type = self.event_type.value

        status = self.status.value

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        replay_of: None | str
        replay_of = self.replay_of

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "webhook_id": webhook_id,
                "event_id": event_id,
                "event_type": event_type,
                "status": status,
                "attempt_count": attempt_count,
                "next_attempt_at": next_attempt_at,
                "replay_of": replay_of,
                "created_at": created_at,
                "finished_at": finished_at,
                "attempts": attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["webhook_delivery"], d.pop("object"))
        if object_ != "webhook_delivery":
            raise ValueError(f"object must match const 'webhook_delivery', got '{object_}'")

        webhook_id = d.pop("webhook_id")

        event_id = d.pop("event_id")

        event_type = WebhookDeliveryEventType(d.pop("event_type"))

        status = WebhookDeliveryStatus(d.pop("status"))

        attempt_count = d.pop("attempt_count")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_replay_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        replay_of = _parse_replay_of(d.pop("replay_of"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = WebhookDeliveryAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        webhook_delivery = cls(
            id=id,
            object_=object_,
            webhook_id=webhook_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            replay_of=replay_of,
            created_at=created_at,
            finished_at=finished_at,
            attempts=attempts,
        )

        return webhook_delivery

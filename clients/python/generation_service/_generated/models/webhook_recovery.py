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

from ..models.webhook_recovery_status import WebhookRecoveryStatus

T = TypeVar("T", bound="WebhookRecovery")


@_attrs_define
class WebhookRecovery:
    """
    Attributes:
        id (str):
        object_ (Literal['webhook_recovery']):
        webhook_id (str):
        since (datetime.datetime):
        until (datetime.datetime): The end of the window (excluded); the time of the request when it was omitted.
        status (WebhookRecoveryStatus): `queued`, then `running` while it replays, then `completed` (also when the
            webhook was deleted or disabled meanwhile).
        total (int | None): How many events it replays (one per event, however many of its deliveries failed); null
            until the job has counted them.
        replayed (int): Replays created so far.
        succeeded (int): Replays the receiver accepted so far.
        created_at (datetime.datetime):
        completed_at (datetime.datetime | None):
    """

    id: str
    object_: Literal["webhook_recovery"]
    webhook_id: str
    since: datetime.datetime
    until: datetime.datetime
    status: WebhookRecoveryStatus
    total: int | None
    replayed: int
    succeeded: int
    created_at: datetime.datetime
    completed_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        webhook_id = self.webhook_id

        since = self.since.isoformat()

        until = self.until.isoformat()

        status = self.status.value

        total: int | None
        total = self.total

        replayed = self.replayed

        succeeded = self.succeeded

        created_at = self.created_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "webhook_id": webhook_id,
                "since": since,
                "until": until,
                "status": status,
                "total": total,
                "replayed": replayed,
                "succeeded": succeeded,
                "created_at": created_at,
                "completed_at": completed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["webhook_recovery"], d.pop("object"))
        if object_ != "webhook_recovery":
            raise ValueError(f"object must match const 'webhook_recovery', got '{object_}'")

        webhook_id = d.pop("webhook_id")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        status = WebhookRecoveryStatus(d.pop("status"))

        def _parse_total(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total = _parse_total(d.pop("total"))

        replayed = d.pop("replayed")

        succeeded = d.pop("succeeded")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        webhook_recovery = cls(
            id=id,
            object_=object_,
            webhook_id=webhook_id,
            since=since,
            until=until,
            status=status,
            total=total,
            replayed=replayed,
            succeeded=succeeded,
            created_at=created_at,
            completed_at=completed_at,
        )

        return webhook_recovery

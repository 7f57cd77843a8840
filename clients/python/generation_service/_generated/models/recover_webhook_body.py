from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecoverWebhookBody")


@_attrs_define
class RecoverWebhookBody:
    """
    Attributes:
        since (datetime.datetime): Replay exhausted deliveries created at or after this instant (RFC 3339), within
            EVENT_RETENTION_DAYS.
        until (datetime.datetime | Unset): And before this instant (RFC 3339, not in the future); omitted, the time of
            the request.
    """

    since: datetime.datetime
    until: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        until: str | Unset = UNSET
        if not isinstance(self.until, Unset):
            until = self.until.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "since": since,
            }
        )
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        _until = d.pop("until", UNSET)
        until: datetime.datetime | Unset
        if isinstance(_until, Unset):
            until = UNSET
        else:
            until = datetime.datetime.fromisoformat(_until)

        recover_webhook_body = cls(
            since=since,
            until=until,
        )

        return recover_webhook_body

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EndpointDisabledEventData")


@_attrs_define
class EndpointDisabledEventData:
    """
    Attributes:
        subscription_id (str):
        url (str):
        reason (str): Why: a 410 Gone, or every delivery failed for `WEBHOOK_DISABLE_AFTER`.
        failing_since (datetime.datetime | None): Since when every attempt had failed.
        disabled_at (datetime.datetime):
    """

    subscription_id: str
    url: str
    reason: str
    failing_since: datetime.datetime | None
    disabled_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        url = self.url

        reason = self.reason

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        disabled_at = self.disabled_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription_id": subscription_id,
                "url": url,
                "reason": reason,
                "failing_since": failing_since,
                "disabled_at": disabled_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        url = d.pop("url")

        reason = d.pop("reason")

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

        disabled_at = datetime.datetime.fromisoformat(d.pop("disabled_at"))

        endpoint_disabled_event_data = cls(
            subscription_id=subscription_id,
            url=url,
            reason=reason,
            failing_since=failing_since,
            disabled_at=disabled_at,
        )

        return endpoint_disabled_event_data

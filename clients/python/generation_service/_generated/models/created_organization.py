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

from ..models.created_organization_plan import CreatedOrganizationPlan

if TYPE_CHECKING:
    from ..models.api_key_with_secret import ApiKeyWithSecret
    from ..models.organization_balance import OrganizationBalance
    from ..models.user import User


T = TypeVar("T", bound="CreatedOrganization")


@_attrs_define
class CreatedOrganization:
    """
    Attributes:
        id (str):
        object_ (Literal['organization']):
        name (str):
        plan (CreatedOrganizationPlan):
        enterprise (bool):
        paused (bool): A paused organization (e.g. after a spending anomaly) cannot start generations.
        rate_limit_per_minute (int | None): Requests per minute for its keys; null: the plan's default.
        retention_days (int | None): Days its jobs' output files are kept when a request names no `retention`; null: the
            plan's default (OUTPUT_RETENTION_DAYS).
        created_at (datetime.datetime):
        balance (OrganizationBalance):
        owner (User):
        api_keys (list[ApiKeyWithSecret]): The owner's live and test keys, with their secrets: shown only this once.
    """

    id: str
    object_: Literal["organization"]
    name: str
    plan: CreatedOrganizationPlan
    enterprise: bool
    paused: bool
    rate_limit_per_minute: int | None
    retention_days: int | None
    created_at: datetime.datetime
    balance: OrganizationBalance
    owner: User
    api_keys: list[ApiKeyWithSecret]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        name = self.name

        plan = self.plan.value

        enterprise = self.enterprise

        paused = self.paused

        rate_limit_per_minute: int | None
        rate_limit_per_minute = self.rate_limit_per_minute

        retention_days: int | None
        retention_days = self.retention_days

        created_at = self.created_at.isoformat()

        balance = self.balance.to_dict()

        owner = self.owner.to_dict()

        api_keys = []
        for api_keys_item_data in self.api_keys:
            api_keys_item = api_keys_item_data.to_dict()
            api_keys.append(api_keys_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "name": name,
                "plan": plan,
                "enterprise": enterprise,
                "paused": paused,
                "rate_limit_per_minute": rate_limit_per_minute,
                "retention_days": retention_days,
                "created_at": created_at,
                "balance": balance,
                "owner": owner,
                "api_keys": api_keys,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key_with_secret import ApiKeyWithSecret
        from ..models.organization_balance import OrganizationBalance
        from ..models.user import User

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["organization"], d.pop("object"))
        if object_ != "organization":
            raise ValueError(f"object must match const 'organization', got '{object_}'")

        name = d.pop("name")

        plan = CreatedOrganizationPlan(d.pop("plan"))

        enterprise = d.pop("enterprise")

        paused = d.pop("paused")

        def _parse_rate_limit_per_minute(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rate_limit_per_minute = _parse_rate_limit_per_minute(d.pop("rate_limit_per_minute"))

        def _parse_retention_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        retention_days = _parse_retention_days(d.pop("retention_days"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        balance = OrganizationBalance.from_dict(d.pop("balance"))

        owner = User.from_dict(d.pop("owner"))

        api_keys = []
        _api_keys = d.pop("api_keys")
        for api_keys_item_data in _api_keys:
            api_keys_item = ApiKeyWithSecret.from_dict(api_keys_item_data)

            api_keys.append(api_keys_item)

        created_organization = cls(
            id=id,
            object_=object_,
            name=name,
            plan=plan,
            enterprise=enterprise,
            paused=paused,
            rate_limit_per_minute=rate_limit_per_minute,
            retention_days=retention_days,
            created_at=created_at,
            balance=balance,
            owner=owner,
            api_keys=api_keys,
        )

        return created_organization

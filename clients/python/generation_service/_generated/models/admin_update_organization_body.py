from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.admin_update_organization_body_plan import AdminUpdateOrganizationBodyPlan
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminUpdateOrganizationBody")


@_attrs_define
class AdminUpdateOrganizationBody:
    """
    Attributes:
        plan (AdminUpdateOrganizationBodyPlan | Unset):
        enterprise (bool | Unset):
        paused (bool | Unset):
        rate_limit_per_minute (int | None | Unset):
        retention_days (int | None | Unset):
    """

    plan: AdminUpdateOrganizationBodyPlan | Unset = UNSET
    enterprise: bool | Unset = UNSET
    paused: bool | Unset = UNSET
    rate_limit_per_minute: int | None | Unset = UNSET
    retention_days: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        plan: str | Unset = UNSET
        if not isinstance(self.plan, Unset):
            plan = self.plan.value

        enterprise = self.enterprise

        paused = self.paused

        rate_limit_per_minute: int | None | Unset
        if isinstance(self.rate_limit_per_minute, Unset):
            rate_limit_per_minute = UNSET
        else:
            rate_limit_per_minute = self.rate_limit_per_minute

        retention_days: int | None | Unset
        if isinstance(self.retention_days, Unset):
            retention_days = UNSET
        else:
            retention_days = self.retention_days

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if plan is not UNSET:
            field_dict["plan"] = plan
        if enterprise is not UNSET:
            field_dict["enterprise"] = enterprise
        if paused is not UNSET:
            field_dict["paused"] = paused
        if rate_limit_per_minute is not UNSET:
            field_dict["rate_limit_per_minute"] = rate_limit_per_minute
        if retention_days is not UNSET:
            field_dict["retention_days"] = retention_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _plan = d.pop("plan", UNSET)
        plan: AdminUpdateOrganizationBodyPlan | Unset
        if isinstance(_plan, Unset):
            plan = UNSET
        else:
            plan = AdminUpdateOrganizationBodyPlan(_plan)

        enterprise = d.pop("enterprise", UNSET)

        paused = d.pop("paused", UNSET)

        def _parse_rate_limit_per_minute(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_minute = _parse_rate_limit_per_minute(d.pop("rate_limit_per_minute", UNSET))

        def _parse_retention_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        retention_days = _parse_retention_days(d.pop("retention_days", UNSET))

        admin_update_organization_body = cls(
            plan=plan,
            enterprise=enterprise,
            paused=paused,
            rate_limit_per_minute=rate_limit_per_minute,
            retention_days=retention_days,
        )

        return admin_update_organization_body

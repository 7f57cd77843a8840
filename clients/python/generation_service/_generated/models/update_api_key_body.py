from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateApiKeyBody")


@_attrs_define
class UpdateApiKeyBody:
    """
    Attributes:
        name (str | Unset):
        monthly_budget_usd (float | None | Unset): At most 2 decimal places.
        ip_allowlist (list[str] | Unset):
    """

    name: str | Unset = UNSET
    monthly_budget_usd: float | None | Unset = UNSET
    ip_allowlist: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        monthly_budget_usd: float | None | Unset
        if isinstance(self.monthly_budget_usd, Unset):
            monthly_budget_usd = UNSET
        else:
            monthly_budget_usd = self.monthly_budget_usd

        ip_allowlist: list[str] | Unset = UNSET
        if not isinstance(self.ip_allowlist, Unset):
            ip_allowlist = self.ip_allowlist

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if monthly_budget_usd is not UNSET:
            field_dict["monthly_budget_usd"] = monthly_budget_usd
        if ip_allowlist is not UNSET:
            field_dict["ipAllowlist"] = ip_allowlist

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_monthly_budget_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        monthly_budget_usd = _parse_monthly_budget_usd(d.pop("monthly_budget_usd", UNSET))

        ip_allowlist = cast(list[str], d.pop("ipAllowlist", UNSET))

        update_api_key_body = cls(
            name=name,
            monthly_budget_usd=monthly_budget_usd,
            ip_allowlist=ip_allowlist,
        )

        return update_api_key_body

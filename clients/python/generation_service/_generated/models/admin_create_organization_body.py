from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.admin_create_organization_body_plan import AdminCreateOrganizationBodyPlan
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminCreateOrganizationBody")


@_attrs_define
class AdminCreateOrganizationBody:
    """
    Attributes:
        name (str):
        plan (AdminCreateOrganizationBodyPlan):
        enterprise (bool | Unset):
        credits_ (int | Unset):
    """

    name: str
    plan: AdminCreateOrganizationBodyPlan
    enterprise: bool | Unset = UNSET
    credits_: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plan = self.plan.value

        enterprise = self.enterprise

        credits_ = self.credits_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "plan": plan,
            }
        )
        if enterprise is not UNSET:
            field_dict["enterprise"] = enterprise
        if credits_ is not UNSET:
            field_dict["credits"] = credits_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        plan = AdminCreateOrganizationBodyPlan(d.pop("plan"))

        enterprise = d.pop("enterprise", UNSET)

        credits_ = d.pop("credits", UNSET)

        admin_create_organization_body = cls(
            name=name,
            plan=plan,
            enterprise=enterprise,
            credits_=credits_,
        )

        return admin_create_organization_body

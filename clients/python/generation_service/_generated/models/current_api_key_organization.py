from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.current_api_key_organization_plan import CurrentApiKeyOrganizationPlan

T = TypeVar("T", bound="CurrentApiKeyOrganization")


@_attrs_define
class CurrentApiKeyOrganization:
    """The organization the key acts for.

    Attributes:
        id (str):
        plan (CurrentApiKeyOrganizationPlan):
        multiplier (float): The plan's price multiplier.
        enterprise (bool): Enterprise features (IP allowlists, own provider keys) are enabled.
        paused (bool): The operator paused the organization: creations are refused until it is resumed.
    """

    id: str
    plan: CurrentApiKeyOrganizationPlan
    multiplier: float
    enterprise: bool
    paused: bool

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        plan = self.plan.value

        multiplier = self.multiplier

        enterprise = self.enterprise

        paused = self.paused

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "plan": plan,
                "multiplier": multiplier,
                "enterprise": enterprise,
                "paused": paused,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        plan = CurrentApiKeyOrganizationPlan(d.pop("plan"))

        multiplier = d.pop("multiplier")

        enterprise = d.pop("enterprise")

        paused = d.pop("paused")

        current_api_key_organization = cls(
            id=id,
            plan=plan,
            multiplier=multiplier,
            enterprise=enterprise,
            paused=paused,
        )

        return current_api_key_organization

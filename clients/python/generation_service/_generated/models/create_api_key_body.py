from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_api_key_body_environment import CreateApiKeyBodyEnvironment
from ..models.create_api_key_body_role import CreateApiKeyBodyRole
from ..models.create_api_key_body_scopes_item import CreateApiKeyBodyScopesItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateApiKeyBody")


@_attrs_define
class CreateApiKeyBody:
    """
    Attributes:
        name (str):
        environment (CreateApiKeyBodyEnvironment | Unset):
        scopes (list[CreateApiKeyBodyScopesItem] | Unset):
        monthly_budget_usd (float | None | Unset): At most 2 decimal places.
        role (CreateApiKeyBodyRole | Unset):
    """

    name: str
    environment: CreateApiKeyBodyEnvironment | Unset = UNSET
    scopes: list[CreateApiKeyBodyScopesItem] | Unset = UNSET
    monthly_budget_usd: float | None | Unset = UNSET
    role: CreateApiKeyBodyRole | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        environment: str | Unset = UNSET
        if not isinstance(self.environment, Unset):
            environment = self.environment.value

        scopes: list[str] | Unset = UNSET
        if not isinstance(self.scopes, Unset):
            scopes = []
            for scopes_item_data in self.scopes:
                scopes_item = scopes_item_data.value
                scopes.append(scopes_item)

        monthly_budget_usd: float | None | Unset
        if isinstance(self.monthly_budget_usd, Unset):
            monthly_budget_usd = UNSET
        else:
            monthly_budget_usd = self.monthly_budget_usd

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if environment is not UNSET:
            field_dict["environment"] = environment
        if scopes is not UNSET:
            field_dict["scopes"] = scopes
        if monthly_budget_usd is not UNSET:
            field_dict["monthly_budget_usd"] = monthly_budget_usd
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        _environment = d.pop("environment", UNSET)
        environment: CreateApiKeyBodyEnvironment | Unset
        if isinstance(_environment, Unset):
            environment = UNSET
        else:
            environment = CreateApiKeyBodyEnvironment(_environment)

        _scopes = d.pop("scopes", UNSET)
        scopes: list[CreateApiKeyBodyScopesItem] | Unset = UNSET
        if _scopes is not UNSET:
            scopes = []
            for scopes_item_data in _scopes:
                scopes_item = CreateApiKeyBodyScopesItem(scopes_item_data)

                scopes.append(scopes_item)

        def _parse_monthly_budget_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        monthly_budget_usd = _parse_monthly_budget_usd(d.pop("monthly_budget_usd", UNSET))

        _role = d.pop("role", UNSET)
        role: CreateApiKeyBodyRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = CreateApiKeyBodyRole(_role)

        create_api_key_body = cls(
            name=name,
            environment=environment,
            scopes=scopes,
            monthly_budget_usd=monthly_budget_usd,
            role=role,
        )

        return create_api_key_body

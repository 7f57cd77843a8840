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

from ..models.current_api_key_environment import CurrentApiKeyEnvironment
from ..models.current_api_key_role import CurrentApiKeyRole
from ..models.current_api_key_scopes_item import CurrentApiKeyScopesItem

if TYPE_CHECKING:
    from ..models.current_api_key_organization import CurrentApiKeyOrganization


T = TypeVar("T", bound="CurrentApiKey")


@_attrs_define
class CurrentApiKey:
    """
    Attributes:
        id (str):
        object_ (Literal['api_key']):
        name (str):
        environment (CurrentApiKeyEnvironment): `test` keys run on the simulator and spend the sandbox, never the
            wallet.
        prefix (str): The first characters of the secret, to tell keys apart.
        scopes (list[CurrentApiKeyScopesItem]):
        role (CurrentApiKeyRole): The key's effective role: its own cap, or its user's role.
        monthly_budget_usd (float | None): The most the key may spend per UTC month; null: no budget.
        spent_usd_this_month (float): What the key spent this UTC month, reservations in flight included.
        ip_allowlist (list[str]): Addresses or CIDR ranges the key may be used from; empty: any.
        created_at (datetime.datetime):
        revoked_at (datetime.datetime | None):
        organization (CurrentApiKeyOrganization): The organization the key acts for.
    """

    id: str
    object_: Literal["api_key"]
    name: str
    environment: CurrentApiKeyEnvironment
    prefix: str
    scopes: list[CurrentApiKeyScopesItem]
    role: CurrentApiKeyRole
    monthly_budget_usd: float | None
    spent_usd_this_month: float
    ip_allowlist: list[str]
    created_at: datetime.datetime
    revoked_at: datetime.datetime | None
    organization: CurrentApiKeyOrganization

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        name = self.name

        environment = self.environment.value

        prefix = self.prefix

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        role = self.role.value

        monthly_budget_usd: float | None
        monthly_budget_usd = self.monthly_budget_usd

        spent_usd_this_month = self.spent_usd_this_month

        ip_allowlist = self.ip_allowlist

        created_at = self.created_at.isoformat()

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        organization = self.organization.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "name": name,
                "environment": environment,
                "prefix": prefix,
                "scopes": scopes,
                "role": role,
                "monthly_budget_usd": monthly_budget_usd,
                "spent_usd_this_month": spent_usd_this_month,
                "ip_allowlist": ip_allowlist,
                "created_at": created_at,
                "revoked_at": revoked_at,
                "organization": organization,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.current_api_key_organization import CurrentApiKeyOrganization

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["api_key"], d.pop("object"))
        if object_ != "api_key":
            raise ValueError(f"object must match const 'api_key', got '{object_}'")

        name = d.pop("name")

        environment = CurrentApiKeyEnvironment(d.pop("environment"))

        prefix = d.pop("prefix")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = CurrentApiKeyScopesItem(scopes_item_data)

            scopes.append(scopes_item)

        role = CurrentApiKeyRole(d.pop("role"))

        def _parse_monthly_budget_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        monthly_budget_usd = _parse_monthly_budget_usd(d.pop("monthly_budget_usd"))

        spent_usd_this_month = d.pop("spent_usd_this_month")

        ip_allowlist = cast(list[str], d.pop("ip_allowlist"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        organization = CurrentApiKeyOrganization.from_dict(d.pop("organization"))

        current_api_key = cls(
            id=id,
            object_=object_,
            name=name,
            environment=environment,
            prefix=prefix,
            scopes=scopes,
            role=role,
            monthly_budget_usd=monthly_budget_usd,
            spent_usd_this_month=spent_usd_this_month,
            ip_allowlist=ip_allowlist,
            created_at=created_at,
            revoked_at=revoked_at,
            organization=organization,
        )

        return current_api_key

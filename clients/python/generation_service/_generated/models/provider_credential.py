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

from ..models.provider_credential_provider import ProviderCredentialProvider

T = TypeVar("T", bound="ProviderCredential")


@_attrs_define
class ProviderCredential:
    """
    Attributes:
        object_ (Literal['provider_credential']):
        provider (ProviderCredentialProvider):
        key_hint (str): The last characters of the key, to tell keys apart; the key itself is never shown.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    object_: Literal["provider_credential"]
    provider: ProviderCredentialProvider
    key_hint: str
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        provider = self.provider.value

        key_hint = self.key_hint

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "provider": provider,
                "key_hint": key_hint,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider_credential"], d.pop("object"))
        if object_ != "provider_credential":
            raise ValueError(f"object must match const 'provider_credential', got '{object_}'")

        provider = ProviderCredentialProvider(d.pop("provider"))

        key_hint = d.pop("key_hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        provider_credential = cls(
            object_=object_,
            provider=provider,
            key_hint=key_hint,
            created_at=created_at,
            updated_at=updated_at,
        )

        return provider_credential

from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.deleted_provider_credential_provider import (
    DeletedProviderCredentialProvider,
)

T = TypeVar("T", bound="DeletedProviderCredential")


@_attrs_define
class DeletedProviderCredential:
    """
    Attributes:
        object_ (Literal['provider_credential']):
        provider (DeletedProviderCredentialProvider):
        deleted (Literal[True]):
    """

    object_: Literal["provider_credential"]
    provider: DeletedProviderCredentialProvider
    deleted: Literal[True]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        provider = self.provider.value

        deleted = self.deleted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "provider": provider,
                "deleted": deleted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider_credential"], d.pop("object"))
        if object_ != "provider_credential":
            raise ValueError(f"object must match const 'provider_credential', got '{object_}'")

        provider = DeletedProviderCredentialProvider(d.pop("provider"))

        deleted = cast(Literal[True], d.pop("deleted"))
        if deleted != True:
            raise ValueError(f"deleted must match const True, got '{deleted}'")

        deleted_provider_credential = cls(
            object_=object_,
            provider=provider,
            deleted=deleted,
        )

        return deleted_provider_credential

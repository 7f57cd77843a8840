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

from ..models.user_role import UserRole

T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """
    Attributes:
        id (str):
        object_ (Literal['user']):
        name (str):
        email (None | str):
        role (UserRole):
        created_at (datetime.datetime):
        deactivated_at (datetime.datetime | None): When the user was deactivated; their keys stop working from then on.
    """

    id: str
    object_: Literal["user"]
    name: str
    email: None | str
    role: UserRole
    created_at: datetime.datetime
    deactivated_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        name = self.name

        email: None | str
        email = self.email

        role = self.role.value

        created_at = self.created_at.isoformat()

        deactivated_at: None | str
        if isinstance(self.deactivated_at, datetime.datetime):
            deactivated_at = self.deactivated_at.isoformat()
        else:
            deactivated_at = self.deactivated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "object": object_,
                "name": name,
                "email": email,
                "role": role,
                "created_at": created_at,
                "deactivated_at": deactivated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["user"], d.pop("object"))
        if object_ != "user":
            raise ValueError(f"object must match const 'user', got '{object_}'")

        name = d.pop("name")

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        role = UserRole(d.pop("role"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_deactivated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deactivated_at_type_0 = datetime.datetime.fromisoformat(data)

                return deactivated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deactivated_at = _parse_deactivated_at(d.pop("deactivated_at"))

        user = cls(
            id=id,
            object_=object_,
            name=name,
            email=email,
            role=role,
            created_at=created_at,
            deactivated_at=deactivated_at,
        )

        return user

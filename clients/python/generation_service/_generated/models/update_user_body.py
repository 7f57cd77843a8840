from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.update_user_body_role import UpdateUserBodyRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateUserBody")


@_attrs_define
class UpdateUserBody:
    """
    Attributes:
        role (UpdateUserBodyRole | Unset):
        name (str | Unset):
    """

    role: UpdateUserBodyRole | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if role is not UNSET:
            field_dict["role"] = role
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _role = d.pop("role", UNSET)
        role: UpdateUserBodyRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = UpdateUserBodyRole(_role)

        name = d.pop("name", UNSET)

        update_user_body = cls(
            role=role,
            name=name,
        )

        return update_user_body

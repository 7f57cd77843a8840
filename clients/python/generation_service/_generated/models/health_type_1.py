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

from ..models.health_type_1_postgres import HealthType1Postgres
from ..models.health_type_1_temporal import HealthType1Temporal

T = TypeVar("T", bound="HealthType1")


@_attrs_define
class HealthType1:
    """A dependency is down (503, with Retry-After).

    Attributes:
        status (Literal['unavailable']):
        postgres (HealthType1Postgres):
        temporal (HealthType1Temporal):
    """

    status: Literal["unavailable"]
    postgres: HealthType1Postgres
    temporal: HealthType1Temporal

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        postgres = self.postgres.value

        temporal = self.temporal.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "postgres": postgres,
                "temporal": temporal,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = cast(Literal["unavailable"], d.pop("status"))
        if status != "unavailable":
            raise ValueError(f"status must match const 'unavailable', got '{status}'")

        postgres = HealthType1Postgres(d.pop("postgres"))

        temporal = HealthType1Temporal(d.pop("temporal"))

        health_type_1 = cls(
            status=status,
            postgres=postgres,
            temporal=temporal,
        )

        return health_type_1

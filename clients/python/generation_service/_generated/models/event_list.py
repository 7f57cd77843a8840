from __future__ import annotations

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

if TYPE_CHECKING:
    from ..models.anomaly_detected_event import AnomalyDetectedEvent
    from ..models.budget_threshold_event import BudgetThresholdEvent
    from ..models.comparison_completed_event import ComparisonCompletedEvent
    from ..models.delivery_exhausted_event import DeliveryExhaustedEvent
    from ..models.endpoint_disabled_event import EndpointDisabledEvent
    from ..models.generation_completed_event import GenerationCompletedEvent
    from ..models.generation_failed_event import GenerationFailedEvent


T = TypeVar("T", bound="EventList")


@_attrs_define
class EventList:
    """A page of Event objects.

    Attributes:
        object_ (Literal['list']):
        data (list[AnomalyDetectedEvent | BudgetThresholdEvent | ComparisonCompletedEvent | DeliveryExhaustedEvent |
            EndpointDisabledEvent | GenerationCompletedEvent | GenerationFailedEvent]):
        has_more (bool): Whether more items follow; pass the last id as `starting_after` to get them.
    """

    object_: Literal["list"]
    data: list[
        AnomalyDetectedEvent
        | BudgetThresholdEvent
        | ComparisonCompletedEvent
        | DeliveryExhaustedEvent
        | EndpointDisabledEvent
        | GenerationCompletedEvent
        | GenerationFailedEvent
    ]
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        from ..models.anomaly_detected_event import AnomalyDetectedEvent
        from ..models.budget_threshold_event import BudgetThresholdEvent
        from ..models.comparison_completed_event import ComparisonCompletedEvent
        from ..models.endpoint_disabled_event import EndpointDisabledEvent
        from ..models.generation_completed_event import GenerationCompletedEvent
        from ..models.generation_failed_event import GenerationFailedEvent

        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item: dict[str, Any]
            if (
                isinstance(data_item_data, GenerationCompletedEvent)
                or isinstance(data_item_data, GenerationFailedEvent)
                or isinstance(data_item_data, ComparisonCompletedEvent)
                or isinstance(data_item_data, BudgetThresholdEvent)
                or isinstance(data_item_data, AnomalyDetectedEvent)
                or isinstance(data_item_data, EndpointDisabledEvent)
            ):
                data_item = data_item_data.to_dict()
            else:
                data_item = data_item_data.to_dict()

            data.append(data_item)

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "data": data,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.anomaly_detected_event import AnomalyDetectedEvent
        from ..models.budget_threshold_event import BudgetThresholdEvent
        from ..models.comparison_completed_event import ComparisonCompletedEvent
        from ..models.delivery_exhausted_event import DeliveryExhaustedEvent
        from ..models.endpoint_disabled_event import EndpointDisabledEvent
        from ..models.generation_completed_event import GenerationCompletedEvent
        from ..models.generation_failed_event import GenerationFailedEvent

        d = dict(src_dict)
        object_ = cast(Literal["list"], d.pop("object"))
        if object_ != "list":
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:

            def _parse_data_item(
                data: object,
            ) -> (
                AnomalyDetectedEvent
                | BudgetThresholdEvent
                | ComparisonCompletedEvent
                | DeliveryExhaustedEvent
                | EndpointDisabledEvent
                | GenerationCompletedEvent
                | GenerationFailedEvent
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = GenerationCompletedEvent.from_dict(data)

                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = GenerationFailedEvent.from_dict(data)

                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = ComparisonCompletedEvent.from_dict(data)

                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = BudgetThresholdEvent.from_dict(data)

                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_4 = AnomalyDetectedEvent.from_dict(data)

                    return componentsschemas_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_5 = EndpointDisabledEvent.from_dict(data)

                    return componentsschemas_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_6 = DeliveryExhaustedEvent.from_dict(data)

                return componentsschemas_event_type_6

            data_item = _parse_data_item(data_item_data)

            data.append(data_item)

        has_more = d.pop("has_more")

        event_list = cls(
            object_=object_,
            data=data,
            has_more=has_more,
        )

        return event_list

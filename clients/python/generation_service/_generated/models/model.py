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

from ..models.model_capabilities_item import ModelCapabilitiesItem
from ..models.model_inputs_item import ModelInputsItem
from ..models.model_modality import ModelModality
from ..models.model_mode import ModelMode
from ..models.model_provider import ModelProvider
from ..models.model_providers_item import ModelProvidersItem
from ..models.model_tier import ModelTier
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.model_limits import ModelLimits
    from ..models.model_pricing import ModelPricing


T = TypeVar("T", bound="Model")


@_attrs_define
class Model:
    """
    Attributes:
        object_ (Literal['model']):
        slug (str): What to pass as `model`.
        name (str):
        provider (ModelProvider): The provider of its first route on this deployment.
        modality (ModelModality):
        tier (ModelTier):
        capabilities (list[ModelCapabilitiesItem]):
        pricing (ModelPricing):
        studio_plus (bool): Only the studio and team plans may use it.
        mode (ModelMode): `sync`: answered when done; `async`: 202, then poll or use webhooks.
        limits (ModelLimits):
        available (bool): Whether it runs for the caller here (the simulator for test keys, else a provider with
            credentials).
        providers (list[ModelProvidersItem]): The providers it would run on for the caller, in order.
        animates_portrait (bool | Unset): Avatar models: whether it animates a portrait photo.
        inputs (list[ModelInputsItem] | Unset): Avatar models: the bodies it takes, and `image_url` where a portrait may
            be sent.
    """

    object_: Literal["model"]
    slug: str
    name: str
    provider: ModelProvider
    modality: ModelModality
    tier: ModelTier
    capabilities: list[ModelCapabilitiesItem]
    pricing: ModelPricing
    studio_plus: bool
    mode: ModelMode
    limits: ModelLimits
    available: bool
    providers: list[ModelProvidersItem]
    animates_portrait: bool | Unset = UNSET
    inputs: list[ModelInputsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        slug = self.slug

        name = self.name

        provider = self.provider.value

        modality = self.modality.value

        tier = self.tier.value

        capabilities = []
        for capabilities_item_data in self.capabilities:
            capabilities_item = capabilities_item_data.value
            capabilities.append(capabilities_item)

        pricing = self.pricing.to_dict()

        studio_plus = self.studio_plus

        mode = self.mode.value

        limits = self.limits.to_dict()

        available = self.available

        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.value
            providers.append(providers_item)

        animates_portrait = self.animates_portrait

        inputs: list[str] | Unset = UNSET
        if not isinstance(self.inputs, Unset):
            inputs = []
            for inputs_item_data in self.inputs:
                inputs_item = inputs_item_data.value
                inputs.append(inputs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "slug": slug,
                "name": name,
                "provider": provider,
                "modality": modality,
                "tier": tier,
                "capabilities": capabilities,
                "pricing": pricing,
                "studio_plus": studio_plus,
                "mode": mode,
                "limits": limits,
                "available": available,
                "providers": providers,
            }
        )
        if animates_portrait is not UNSET:
            field_dict["animates_portrait"] = animates_portrait
        if inputs is not UNSET:
            field_dict["inputs"] = inputs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.model_limits import ModelLimits
        from ..models.model_pricing import ModelPricing

        d = dict(src_dict)
        object_ = cast(Literal["model"], d.pop("object"))
        if object_ != "model":
            raise ValueError(f"object must match const 'model', got '{object_}'")

        slug = d.pop("slug")

        name = d.pop("name")

        provider = ModelProvider(d.pop("provider"))

        modality = ModelModality(d.pop("modality"))

        tier = ModelTier(d.pop("tier"))

        capabilities = []
        _capabilities = d.pop("capabilities")
        for capabilities_item_data in _capabilities:
            capabilities_item = ModelCapabilitiesItem(capabilities_item_data)

            capabilities.append(capabilities_item)

        pricing = ModelPricing.from_dict(d.pop("pricing"))

        studio_plus = d.pop("studio_plus")

        mode = ModelMode(d.pop("mode"))

        limits = ModelLimits.from_dict(d.pop("limits"))

        available = d.pop("available")

        providers = []
        _providers = d.pop("providers")
        for providers_item_data in _providers:
            providers_item = ModelProvidersItem(providers_item_data)

            providers.append(providers_item)

        animates_portrait = d.pop("animates_portrait", UNSET)

        _inputs = d.pop("inputs", UNSET)
        inputs: list[ModelInputsItem] | Unset = UNSET
        if _inputs is not UNSET:
            inputs = []
            for inputs_item_data in _inputs:
                inputs_item = ModelInputsItem(inputs_item_data)

                inputs.append(inputs_item)

        model = cls(
            object_=object_,
            slug=slug,
            name=name,
            provider=provider,
            modality=modality,
            tier=tier,
            capabilities=capabilities,
            pricing=pricing,
            studio_plus=studio_plus,
            mode=mode,
            limits=limits,
            available=available,
            providers=providers,
            animates_portrait=animates_portrait,
            inputs=inputs,
        )

        return model

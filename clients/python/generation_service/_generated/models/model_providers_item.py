from enum import StrEnum


class ModelProvidersItem(StrEnum):
    ANTHROPIC = "anthropic"
    ELEVENLABS = "elevenlabs"
    FAL = "fal"
    OPENAI = "openai"
    OPENAI_COMPATIBLE = "openai_compatible"
    REPLICATE = "replicate"
    SIMULATOR = "simulator"

    def __str__(self) -> str:
        return str(self.value)

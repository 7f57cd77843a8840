from enum import StrEnum


class DeleteProviderCredentialProvider(StrEnum):
    ANTHROPIC = "anthropic"
    ELEVENLABS = "elevenlabs"
    FAL = "fal"
    OPENAI = "openai"
    OPENAI_COMPATIBLE = "openai_compatible"
    REPLICATE = "replicate"

    def __str__(self) -> str:
        return str(self.value)

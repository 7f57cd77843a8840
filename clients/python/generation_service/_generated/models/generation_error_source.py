from enum import StrEnum


class GenerationErrorSource(StrEnum):
    GATEWAY = "gateway"
    PROVIDER = "provider"

    def __str__(self) -> str:
        return str(self.value)

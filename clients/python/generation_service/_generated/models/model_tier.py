from enum import StrEnum


class ModelTier(StrEnum):
    FAST = "fast"
    PRO = "pro"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)

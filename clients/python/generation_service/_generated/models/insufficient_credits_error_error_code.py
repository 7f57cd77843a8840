from enum import StrEnum


class InsufficientCreditsErrorErrorCode(StrEnum):
    INSUFFICIENT_CREDITS = "insufficient_credits"

    def __str__(self) -> str:
        return str(self.value)

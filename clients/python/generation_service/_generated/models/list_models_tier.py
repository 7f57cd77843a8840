from enum import StrEnum


class ListModelsTier(StrEnum):
    FAST = "fast"
    PRO = "pro"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class PricingInputsPlan(StrEnum):
    FREE = "free"
    PRO = "pro"
    STUDIO = "studio"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class PlanUpgradeRequiredErrorErrorType(StrEnum):
    BILLING_ERROR = "billing_error"

    def __str__(self) -> str:
        return str(self.value)

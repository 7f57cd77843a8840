from enum import StrEnum


class PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType(StrEnum):
    BILLING_ERROR = "billing_error"

    def __str__(self) -> str:
        return str(self.value)

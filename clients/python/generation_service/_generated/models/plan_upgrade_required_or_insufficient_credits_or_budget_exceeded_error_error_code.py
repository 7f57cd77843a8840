from enum import StrEnum


class PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededErrorErrorCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"

    def __str__(self) -> str:
        return str(self.value)

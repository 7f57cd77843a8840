from enum import StrEnum


class PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorErrorCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"
    MAX_COST_EXCEEDED = "max_cost_exceeded"
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"

    def __str__(self) -> str:
        return str(self.value)

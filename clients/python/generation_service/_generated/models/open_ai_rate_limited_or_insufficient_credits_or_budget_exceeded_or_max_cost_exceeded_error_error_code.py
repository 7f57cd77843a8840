from enum import StrEnum


class OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    MAX_COST_EXCEEDED = "max_cost_exceeded"
    RATE_LIMITED = "rate_limited"

    def __str__(self) -> str:
        return str(self.value)

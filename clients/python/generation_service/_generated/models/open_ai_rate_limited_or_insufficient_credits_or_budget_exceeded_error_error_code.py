from enum import StrEnum


class OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededErrorErrorCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    RATE_LIMITED = "rate_limited"

    def __str__(self) -> str:
        return str(self.value)

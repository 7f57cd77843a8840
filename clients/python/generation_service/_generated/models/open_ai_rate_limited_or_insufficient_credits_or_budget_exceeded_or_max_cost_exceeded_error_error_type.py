from enum import StrEnum


class OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType(StrEnum):
    INSUFFICIENT_QUOTA = "insufficient_quota"
    RATE_LIMIT_ERROR = "rate_limit_error"

    def __str__(self) -> str:
        return str(self.value)

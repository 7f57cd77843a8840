from enum import StrEnum


class OpenAiRateLimitedErrorErrorType(StrEnum):
    RATE_LIMIT_ERROR = "rate_limit_error"

    def __str__(self) -> str:
        return str(self.value)

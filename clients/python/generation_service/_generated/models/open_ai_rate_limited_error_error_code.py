from enum import StrEnum


class OpenAiRateLimitedErrorErrorCode(StrEnum):
    RATE_LIMITED = "rate_limited"

    def __str__(self) -> str:
        return str(self.value)

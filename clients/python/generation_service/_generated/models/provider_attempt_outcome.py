from enum import StrEnum


class ProviderAttemptOutcome(StrEnum):
    CANCELED = "canceled"
    FAILED = "failed"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)

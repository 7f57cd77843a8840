from enum import StrEnum


class ComparisonStatus(StrEnum):
    FAILED = "failed"
    PARTIAL = "partial"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class BudgetThresholdEventDataReason(StrEnum):
    CROSSED = "crossed"
    REACHED = "reached"
    REQUEST_REFUSED = "request_refused"

    def __str__(self) -> str:
        return str(self.value)

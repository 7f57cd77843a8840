from enum import StrEnum


class ComparisonNotCancelableErrorErrorCode(StrEnum):
    COMPARISON_NOT_CANCELABLE = "comparison_not_cancelable"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ValidationFailedErrorErrorCode(StrEnum):
    VALIDATION_FAILED = "validation_failed"

    def __str__(self) -> str:
        return str(self.value)

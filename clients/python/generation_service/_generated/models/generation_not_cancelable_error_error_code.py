from enum import StrEnum


class GenerationNotCancelableErrorErrorCode(StrEnum):
    GENERATION_NOT_CANCELABLE = "generation_not_cancelable"

    def __str__(self) -> str:
        return str(self.value)

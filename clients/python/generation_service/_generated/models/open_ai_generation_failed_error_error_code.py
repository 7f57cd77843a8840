from enum import StrEnum


class OpenAiGenerationFailedErrorErrorCode(StrEnum):
    GENERATION_FAILED = "generation_failed"

    def __str__(self) -> str:
        return str(self.value)

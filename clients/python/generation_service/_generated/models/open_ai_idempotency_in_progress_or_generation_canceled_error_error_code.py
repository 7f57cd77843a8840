from enum import StrEnum


class OpenAiIdempotencyInProgressOrGenerationCanceledErrorErrorCode(StrEnum):
    GENERATION_CANCELED = "generation_canceled"
    IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress"

    def __str__(self) -> str:
        return str(self.value)

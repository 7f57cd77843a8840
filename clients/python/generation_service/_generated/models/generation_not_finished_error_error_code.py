from enum import StrEnum


class GenerationNotFinishedErrorErrorCode(StrEnum):
    GENERATION_NOT_FINISHED = "generation_not_finished"

    def __str__(self) -> str:
        return str(self.value)

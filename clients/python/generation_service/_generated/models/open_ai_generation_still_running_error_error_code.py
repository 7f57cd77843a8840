from enum import StrEnum


class OpenAiGenerationStillRunningErrorErrorCode(StrEnum):
    GENERATION_STILL_RUNNING = "generation_still_running"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiGenerationFailedErrorErrorType(StrEnum):
    SERVER_ERROR = "server_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiInternalErrorErrorErrorType(StrEnum):
    SERVER_ERROR = "server_error"

    def __str__(self) -> str:
        return str(self.value)

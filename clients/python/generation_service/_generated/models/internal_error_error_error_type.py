from enum import StrEnum


class InternalErrorErrorErrorType(StrEnum):
    API_ERROR = "api_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ServiceUnavailableErrorErrorType(StrEnum):
    API_ERROR = "api_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ServiceUnavailableOrProviderUnavailableErrorErrorType(StrEnum):
    API_ERROR = "api_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType(StrEnum):
    AUTHENTICATION_ERROR = "authentication_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType(StrEnum):
    AUTHENTICATION_ERROR = "authentication_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorCode(StrEnum):
    INVALID_API_KEY = "invalid_api_key"
    INVALID_AUTHORIZATION = "invalid_authorization"
    MISSING_AUTHORIZATION = "missing_authorization"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiErrorErrorType(StrEnum):
    AUTHENTICATION_ERROR = "authentication_error"
    INSUFFICIENT_QUOTA = "insufficient_quota"
    INVALID_REQUEST_ERROR = "invalid_request_error"
    PERMISSION_ERROR = "permission_error"
    RATE_LIMIT_ERROR = "rate_limit_error"
    SERVER_ERROR = "server_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class WebhookLimitReachedErrorErrorType(StrEnum):
    INVALID_REQUEST_ERROR = "invalid_request_error"

    def __str__(self) -> str:
        return str(self.value)

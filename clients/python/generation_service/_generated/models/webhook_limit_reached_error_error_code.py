from enum import StrEnum


class WebhookLimitReachedErrorErrorCode(StrEnum):
    WEBHOOK_LIMIT_REACHED = "webhook_limit_reached"

    def __str__(self) -> str:
        return str(self.value)

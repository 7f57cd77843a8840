from enum import StrEnum


class WebhookDisabledErrorErrorCode(StrEnum):
    WEBHOOK_DISABLED = "webhook_disabled"

    def __str__(self) -> str:
        return str(self.value)

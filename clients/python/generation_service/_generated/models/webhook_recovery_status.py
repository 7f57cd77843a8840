from enum import StrEnum


class WebhookRecoveryStatus(StrEnum):
    COMPLETED = "completed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ListEventsType(StrEnum):
    COMPARISON_COMPLETED = "comparison.completed"
    GENERATION_COMPLETED = "generation.completed"
    GENERATION_FAILED = "generation.failed"
    USAGE_ANOMALY_DETECTED = "usage.anomaly_detected"
    USAGE_BUDGET_THRESHOLD = "usage.budget_threshold"
    WEBHOOK_DELIVERY_EXHAUSTED = "webhook.delivery_exhausted"
    WEBHOOK_ENDPOINT_DISABLED = "webhook.endpoint_disabled"

    def __str__(self) -> str:
        return str(self.value)

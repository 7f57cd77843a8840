from enum import StrEnum


class DeliveryNotReplayableErrorErrorCode(StrEnum):
    DELIVERY_NOT_REPLAYABLE = "delivery_not_replayable"

    def __str__(self) -> str:
        return str(self.value)

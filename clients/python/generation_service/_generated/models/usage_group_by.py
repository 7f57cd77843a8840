from enum import StrEnum


class UsageGroupBy(StrEnum):
    API_KEY = "api_key"
    DAY = "day"
    MODALITY = "modality"
    MODEL = "model"

    def __str__(self) -> str:
        return str(self.value)

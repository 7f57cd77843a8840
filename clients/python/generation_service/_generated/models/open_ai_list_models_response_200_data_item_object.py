from enum import StrEnum


class OpenAiListModelsResponse200DataItemObject(StrEnum):
    MODEL = "model"

    def __str__(self) -> str:
        return str(self.value)

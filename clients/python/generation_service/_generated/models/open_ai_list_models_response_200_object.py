from enum import StrEnum


class OpenAiListModelsResponse200Object(StrEnum):
    LIST = "list"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiChatCompletionResponse200ChoicesItemMessageRole(StrEnum):
    ASSISTANT = "assistant"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiChatCompletionResponse200ChoicesItemFinishReason(StrEnum):
    LENGTH = "length"
    STOP = "stop"

    def __str__(self) -> str:
        return str(self.value)

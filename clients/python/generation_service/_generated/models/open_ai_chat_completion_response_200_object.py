from enum import StrEnum


class OpenAiChatCompletionResponse200Object(StrEnum):
    CHAT_COMPLETION = "chat.completion"

    def __str__(self) -> str:
        return str(self.value)

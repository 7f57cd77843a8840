from enum import StrEnum


class OpenAiChatCompletionBodyMessagesItemContentType1ItemType(StrEnum):
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)

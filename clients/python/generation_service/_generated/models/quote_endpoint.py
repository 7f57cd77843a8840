from enum import StrEnum


class QuoteEndpoint(StrEnum):
    VALUE_0 = "/v1/images"
    VALUE_1 = "/v1/videos"
    VALUE_2 = "/v1/voice"
    VALUE_3 = "/v1/music"
    VALUE_4 = "/v1/avatars"
    VALUE_5 = "/v1/chat"
    VALUE_6 = "/v1/three-d"
    VALUE_7 = "/v1/upscale"
    VALUE_8 = "/v1/openai/chat/completions"
    VALUE_9 = "/v1/comparisons"

    def __str__(self) -> str:
        return str(self.value)

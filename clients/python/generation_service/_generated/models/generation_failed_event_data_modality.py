from enum import StrEnum


class GenerationFailedEventDataModality(StrEnum):
    AVATAR = "avatar"
    CHAT = "chat"
    IMAGE = "image"
    MUSIC = "music"
    UPSCALE = "upscale"
    VALUE_6 = "3d"
    VIDEO = "video"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ModelInputsItem(StrEnum):
    IMAGE_URL = "image_url"
    LIPSYNC = "lipsync"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)

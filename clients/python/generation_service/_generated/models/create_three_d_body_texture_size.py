from enum import StrEnum


class CreateThreeDBodyTextureSize(StrEnum):
    VALUE_0 = "1024"
    VALUE_1 = "2048"
    VALUE_2 = "4096"

    def __str__(self) -> str:
        return str(self.value)

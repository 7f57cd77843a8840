from enum import StrEnum


class CreateImageBodyAspectRatio(StrEnum):
    VALUE_0 = "1:1"
    VALUE_1 = "3:2"
    VALUE_2 = "2:3"
    VALUE_3 = "16:9"
    VALUE_4 = "9:16"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class CreateUpscaleBodyScaleFactor(StrEnum):
    VALUE_0 = "2"
    VALUE_1 = "4"

    def __str__(self) -> str:
        return str(self.value)

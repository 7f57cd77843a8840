from enum import StrEnum


class PricingInputsUnit(StrEnum):
    IMAGE = "image"
    MEGAPIXEL = "megapixel"
    MINUTE = "minute"
    SECOND = "second"
    SONG = "song"
    VALUE_3 = "1k_characters"
    VALUE_6 = "3d_model"
    VALUE_7 = "1m_output_tokens"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiValidationFailedOrCapabilityNotSupportedErrorErrorCode(StrEnum):
    CAPABILITY_NOT_SUPPORTED = "capability_not_supported"
    VALIDATION_FAILED = "validation_failed"

    def __str__(self) -> str:
        return str(self.value)

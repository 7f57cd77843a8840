from enum import StrEnum


class ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorErrorCode(StrEnum):
    CAPABILITY_NOT_SUPPORTED = "capability_not_supported"
    MODALITY_MISMATCH = "modality_mismatch"
    UNKNOWN_MODEL = "unknown_model"
    VALIDATION_FAILED = "validation_failed"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorErrorCode(StrEnum):
    MODALITY_MISMATCH = "modality_mismatch"
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"
    UNKNOWN_MODEL = "unknown_model"

    def __str__(self) -> str:
        return str(self.value)

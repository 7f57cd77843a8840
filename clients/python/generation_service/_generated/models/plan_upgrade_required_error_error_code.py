from enum import StrEnum


class PlanUpgradeRequiredErrorErrorCode(StrEnum):
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class LastOwnerOrUserDeactivatedErrorErrorCode(StrEnum):
    LAST_OWNER = "last_owner"
    USER_DEACTIVATED = "user_deactivated"

    def __str__(self) -> str:
        return str(self.value)

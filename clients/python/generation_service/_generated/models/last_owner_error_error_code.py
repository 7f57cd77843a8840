from enum import StrEnum


class LastOwnerErrorErrorCode(StrEnum):
    LAST_OWNER = "last_owner"

    def __str__(self) -> str:
        return str(self.value)

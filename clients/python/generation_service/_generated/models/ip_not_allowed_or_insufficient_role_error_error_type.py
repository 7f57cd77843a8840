from enum import StrEnum


class IpNotAllowedOrInsufficientRoleErrorErrorType(StrEnum):
    PERMISSION_ERROR = "permission_error"

    def __str__(self) -> str:
        return str(self.value)

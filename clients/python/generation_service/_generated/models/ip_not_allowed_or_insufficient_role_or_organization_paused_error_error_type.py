from enum import StrEnum


class IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType(StrEnum):
    PERMISSION_ERROR = "permission_error"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class IpNotAllowedOrInsufficientRoleErrorErrorCode(StrEnum):
    INSUFFICIENT_ROLE = "insufficient_role"
    IP_NOT_ALLOWED = "ip_not_allowed"

    def __str__(self) -> str:
        return str(self.value)

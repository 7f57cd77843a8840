from enum import StrEnum


class IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorCode(StrEnum):
    INSUFFICIENT_ROLE = "insufficient_role"
    IP_NOT_ALLOWED = "ip_not_allowed"
    ORGANIZATION_PAUSED = "organization_paused"

    def __str__(self) -> str:
        return str(self.value)

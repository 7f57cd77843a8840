from enum import StrEnum


class OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType(StrEnum):
    PERMISSION_ERROR = "permission_error"

    def __str__(self) -> str:
        return str(self.value)

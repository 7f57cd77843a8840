from enum import StrEnum


class CurrentApiKeyRole(StrEnum):
    ADMIN = "admin"
    DEVELOPER = "developer"
    OWNER = "owner"
    VIEWER = "viewer"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ResourceNotFoundErrorErrorCode(StrEnum):
    RESOURCE_NOT_FOUND = "resource_not_found"

    def __str__(self) -> str:
        return str(self.value)

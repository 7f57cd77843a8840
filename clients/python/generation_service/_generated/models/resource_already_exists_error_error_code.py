from enum import StrEnum


class ResourceAlreadyExistsErrorErrorCode(StrEnum):
    RESOURCE_ALREADY_EXISTS = "resource_already_exists"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class OpenAiServiceUnavailableOrProviderUnavailableErrorErrorCode(StrEnum):
    PROVIDER_UNAVAILABLE = "provider_unavailable"
    SERVICE_UNAVAILABLE = "service_unavailable"

    def __str__(self) -> str:
        return str(self.value)

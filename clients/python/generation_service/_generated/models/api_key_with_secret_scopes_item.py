from enum import StrEnum


class ApiKeyWithSecretScopesItem(StrEnum):
    API_KEYSMANAGE = "api_keys:manage"
    AVATARSWRITE = "avatars:write"
    CHATWRITE = "chat:write"
    EVENTSREAD = "events:read"
    GENERATIONSREAD = "generations:read"
    IMAGESWRITE = "images:write"
    MUSICWRITE = "music:write"
    THREE_DWRITE = "three_d:write"
    UPLOADSWRITE = "uploads:write"
    UPSCALEWRITE = "upscale:write"
    USAGEREAD = "usage:read"
    VIDEOSWRITE = "videos:write"
    VOICEWRITE = "voice:write"
    WEBHOOKSMANAGE = "webhooks:manage"

    def __str__(self) -> str:
        return str(self.value)

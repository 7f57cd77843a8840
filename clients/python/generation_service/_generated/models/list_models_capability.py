from enum import StrEnum


class ListModelsCapability(StrEnum):
    FACE_RESTORE = "face_restore"
    IMAGE_TO_3D = "image_to_3d"
    IMAGE_TO_IMAGE = "image_to_image"
    IMAGE_TO_VIDEO = "image_to_video"
    IMAGE_UPSCALE = "image_upscale"
    LIPSYNC = "lipsync"
    MULTIMODAL_INPUT = "multimodal_input"
    RIGGED_3D = "rigged_3d"
    TEXT_TO_3D = "text_to_3d"
    TEXT_TO_IMAGE = "text_to_image"
    TEXT_TO_MUSIC = "text_to_music"
    TEXT_TO_TEXT = "text_to_text"
    TEXT_TO_VIDEO = "text_to_video"
    TEXT_TO_VOICE = "text_to_voice"
    TOOL_USE = "tool_use"
    TRANSCRIPTION = "transcription"
    VOICE_CLONE = "voice_clone"

    def __str__(self) -> str:
        return str(self.value)

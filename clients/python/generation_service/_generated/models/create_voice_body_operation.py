from enum import StrEnum


class CreateVoiceBodyOperation(StrEnum):
    TRANSCRIPTION = "transcription"
    TTS = "tts"
    VOICE_CLONE = "voice_clone"

    def __str__(self) -> str:
        return str(self.value)

import { compileValidator } from './ajv';
import { modelField, seedField, urlField } from './fields';

export const VOICE_OPERATIONS = ['tts', 'voice_clone', 'transcription'] as const;
export type VoiceOperation = (typeof VOICE_OPERATIONS)[number];

export interface VoiceRequest {
  model: string;
  operation?: VoiceOperation;
  text?: string;
  voice_id?: string;
  audio_url?: string;
  language?: string;
  seed?: number;
}

// Decisions §10 POST /v1/voice. Which fields an operation needs (text for tts and clone, audio_url
// for clone and transcription) is checked by the handler, which can name the missing one.
export const parseVoiceRequest = compileValidator<VoiceRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model'],
  properties: {
    model: modelField,
    operation: { type: 'string', enum: [...VOICE_OPERATIONS] },
    text: { type: 'string', minLength: 1, maxLength: 100_000 },
    voice_id: { type: 'string', minLength: 1, maxLength: 200 },
    audio_url: urlField,
    language: { type: 'string', pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$' },
    seed: seedField,
  },
});

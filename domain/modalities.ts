// The eight modalities and how each endpoint answers (spec §1 table).

export const MODALITIES = ['image', 'video', 'voice', 'music', 'avatar', 'chat', '3d', 'upscale'] as const;
export type Modality = (typeof MODALITIES)[number];

export type ResponseMode = 'sync' | 'async';

export const MODALITY_MODE: Record<Modality, ResponseMode> = {
  image: 'sync',
  video: 'async',
  voice: 'sync',
  music: 'async',
  avatar: 'async',
  chat: 'sync',
  '3d': 'async',
  upscale: 'async',
};

export const CAPABILITIES = [
  'text_to_image',
  'image_to_image',
  'text_to_video',
  'image_to_video',
  'text_to_voice',
  'voice_clone',
  'transcription',
  'text_to_music',
  'lipsync',
  'text_to_text',
  'tool_use',
  'multimodal_input',
  'text_to_3d',
  'image_to_3d',
  'rigged_3d',
  'image_upscale',
  'face_restore',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * The modalities whose catalog entries may carry each capability. `text_to_video` is shared: an
 * avatar model that speaks a text (text-to-avatar) carries it, since the spec has no own identifier
 * for that; lipsync avatar models carry `lipsync`.
 */
export const CAPABILITY_MODALITIES: Record<Capability, readonly Modality[]> = {
  text_to_image: ['image'],
  image_to_image: ['image'],
  text_to_video: ['video', 'avatar'],
  image_to_video: ['video'],
  text_to_voice: ['voice'],
  voice_clone: ['voice'],
  transcription: ['voice'],
  text_to_music: ['music'],
  lipsync: ['avatar'],
  text_to_text: ['chat'],
  tool_use: ['chat'],
  multimodal_input: ['chat'],
  text_to_3d: ['3d'],
  image_to_3d: ['3d'],
  rigged_3d: ['3d'],
  image_upscale: ['upscale'],
  face_restore: ['upscale'],
};

/** The capabilities a model of `modality` may carry. */
export function capabilitiesFor(modality: Modality): Capability[] {
  return CAPABILITIES.filter((capability) => CAPABILITY_MODALITIES[capability].includes(modality));
}

/**
 * Which field of a modality's request body carries its text, as the request schemas name it (a
 * comparison's prompt goes there; the dashboard's forms fill it). Upscale has no text input.
 */
export const PROMPT_FIELD: Record<Modality, 'prompt' | 'text' | 'messages' | null> = {
  image: 'prompt',
  video: 'prompt',
  music: 'prompt',
  '3d': 'prompt',
  voice: 'text',
  avatar: 'text',
  chat: 'messages',
  upscale: null,
};

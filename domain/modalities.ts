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

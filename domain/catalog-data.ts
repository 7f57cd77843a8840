import type { ModelEntry, ModelLimits } from './catalog-types';
import type { Modality } from './modalities';

// The single source of the model catalog, grouped by modality.
//
// Prices are the providers' public list prices converted at 1,000 credits per USD, in the unit the
// modality is billed in (decisions §4); `priceSource` names the page and, where the provider prices
// differently (per 5 s video, per run, per hour), how the price was converted. "(list price, 2025)"
// marks a price taken from the provider's 2025 list that the stored pages did not confirm.
// `routes` are the providers that serve a model, tried in order on retryable failures (decisions
// §7), each with the identifier that provider's own docs use. Google's models are served through
// hosts of them: fal and Replicate for Imagen and Veo, an OpenAI-compatible server for Gemini
// (Google serves one at generativelanguage.googleapis.com/v1beta/openai).
// The response mode (sync/async) follows from the modality (spec §1), not from this file.

type Draft = Omit<ModelEntry, 'modality' | 'studioPlus' | 'limits'> & { studioPlus?: boolean; limits?: ModelLimits };

/** Fills in the modality, and the defaults every entry shares: not Studio+, no limits. */
const entryOf =
  (modality: Modality) =>
  ({ studioPlus = false, limits = {}, ...draft }: Draft): ModelEntry => ({ ...draft, modality, studioPlus, limits });

const image = entryOf('image');
const video = entryOf('video');
const voice = entryOf('voice');
const music = entryOf('music');
const avatar = entryOf('avatar');
const chat = entryOf('chat');
const threeD = entryOf('3d');
const upscale = entryOf('upscale');

const ALL_IMAGE_RATIOS = ['1:1', '3:2', '2:3', '16:9', '9:16'];
/** Spec §8: music is requested in 15..180 s; a model that renders more is clamped to that range. */
const SONG = { minDurationS: 15, maxDurationS: 180 };

export const CATALOG_DATA: readonly ModelEntry[] = [
  // ── image (sync) ─ per image or per output megapixel ───────────────────────────────────────────
  image({
    slug: 'flux-schnell', name: 'FLUX.1 [schnell]', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/flux/schnell' }, { provider: 'replicate', model: 'black-forest-labs/flux-schnell' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'megapixel', creditsPerUnit: 3 },
    priceSource: 'fal.ai/models/fal-ai/flux/schnell: $0.003 per megapixel',
    limits: { maxOutputs: 4, aspectRatios: ALL_IMAGE_RATIOS },
  }),
  image({
    slug: 'flux-dev', name: 'FLUX.1 [dev]', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/flux/dev' }, { provider: 'replicate', model: 'black-forest-labs/flux-dev' }],
    capabilities: ['text_to_image', 'image_to_image'],
    pricing: { unit: 'megapixel', creditsPerUnit: 25 },
    priceSource: 'fal.ai/models/fal-ai/flux/dev: $0.025 per megapixel',
    limits: { maxOutputs: 4, aspectRatios: ALL_IMAGE_RATIOS },
  }),
  image({
    slug: 'flux-1.1-pro', name: 'FLUX1.1 [pro]', tier: 'pro',
    routes: [{ provider: 'fal', model: 'fal-ai/flux-pro/v1.1' }, { provider: 'replicate', model: 'black-forest-labs/flux-1.1-pro' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'megapixel', creditsPerUnit: 40 },
    priceSource: 'fal.ai/models/fal-ai/flux-pro/v1.1: $0.04 per megapixel',
    limits: { maxOutputs: 4, aspectRatios: ALL_IMAGE_RATIOS },
  }),
  image({
    slug: 'flux-1.1-pro-ultra', name: 'FLUX1.1 [pro] ultra', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/flux-pro/v1.1-ultra' }],
    capabilities: ['text_to_image', 'image_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 60 },
    priceSource: 'fal.ai/models/fal-ai/flux-pro/v1.1-ultra: $0.06 per image',
    limits: { maxOutputs: 4, aspectRatios: ALL_IMAGE_RATIOS },
  }),
  image({
    slug: 'imagen-4', name: 'Imagen 4', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/imagen4/preview' }, { provider: 'replicate', model: 'google/imagen-4' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 40 },
    priceSource: 'cloud.google.com/vertex-ai/generative-ai/pricing: Imagen 4, $0.04 per image',
    limits: { maxOutputs: 4, aspectRatios: ['1:1', '16:9', '9:16'] },
  }),
  image({
    slug: 'imagen-4-fast', name: 'Imagen 4 Fast', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/imagen4/preview/fast' }, { provider: 'replicate', model: 'google/imagen-4-fast' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 20 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Imagen 4 Fast, $0.02 per image',
    limits: { maxOutputs: 4, aspectRatios: ['1:1', '16:9', '9:16'] },
  }),
  image({
    slug: 'gpt-image-1', name: 'GPT Image 1', tier: 'pro',
    routes: [{ provider: 'openai', model: 'gpt-image-1' }],
    capabilities: ['text_to_image', 'image_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 63 },
    priceSource:
      'platform.openai.com/docs/pricing: gpt-image-1 medium quality $0.042 (1024x1024) to $0.063 (1536x1024) per image → priced at $0.063',
    limits: { maxOutputs: 4, aspectRatios: ['1:1', '3:2', '2:3'] },
  }),
  image({
    slug: 'ideogram-v3', name: 'Ideogram 3.0', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/ideogram/v3' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 60 },
    priceSource: 'fal.ai/models/fal-ai/ideogram/v3: $0.06 per image (BALANCED rendering speed)',
    limits: { maxOutputs: 4, aspectRatios: ALL_IMAGE_RATIOS },
  }),
  image({
    slug: 'recraft-v3', name: 'Recraft V3', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/recraft/v3/text-to-image' }],
    capabilities: ['text_to_image'],
    pricing: { unit: 'image', creditsPerUnit: 40 },
    priceSource: 'fal.ai/models/fal-ai/recraft/v3/text-to-image: $0.04 per raster image (vector styles, not offered here, $0.08)',
    limits: { maxOutputs: 1, aspectRatios: ALL_IMAGE_RATIOS },
  }),

  // ── video (async) ─ per second of output ───────────────────────────────────────────────────────
  video({
    slug: 'kling-2.1-master', name: 'Kling 2.1 Master', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/kling-video/v2.1/master/text-to-video' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 280 },
    priceSource:
      'fal.ai/models/fal-ai/kling-video/v2.1/master/text-to-video: $1.40 per 5 s video, $0.28 per extra second → $0.28/s',
    limits: { durationsS: [5, 10], aspectRatios: ['16:9', '9:16', '1:1'] },
  }),
  video({
    slug: 'kling-2.1-pro', name: 'Kling 2.1 Pro (image to video)', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/kling-video/v2.1/pro/image-to-video' }],
    capabilities: ['image_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 98 },
    priceSource:
      'fal.ai/models/fal-ai/kling-video/v2.1/pro/image-to-video: $0.49 per 5 s video, $0.098 per extra second → $0.098/s',
    limits: { durationsS: [5, 10] },
  }),
  video({
    slug: 'veo-3', name: 'Veo 3', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/veo3' }, { provider: 'replicate', model: 'google/veo-3' }],
    capabilities: ['text_to_video', 'image_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 400 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Veo 3, $0.40 per second of video with audio',
    limits: { durationsS: [8], aspectRatios: ['16:9', '9:16'] },
  }),
  video({
    slug: 'veo-3-fast', name: 'Veo 3 Fast', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/veo3/fast' }, { provider: 'replicate', model: 'google/veo-3-fast' }],
    capabilities: ['text_to_video', 'image_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 150 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Veo 3 Fast, $0.15 per second of video with audio',
    limits: { durationsS: [8], aspectRatios: ['16:9', '9:16'] },
  }),
  video({
    slug: 'hailuo-02', name: 'MiniMax Hailuo 02 (768p)', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/minimax/hailuo-02/standard/text-to-video' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 45 },
    priceSource: 'fal.ai/models/fal-ai/minimax/hailuo-02/standard: $0.045 per second at 768p ($0.27 per 6 s video)',
    limits: { durationsS: [6, 10] },
  }),
  video({
    slug: 'seedance-1-pro', name: 'Seedance 1.0 Pro (image to video)', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/bytedance/seedance/v1/pro/image-to-video' }],
    capabilities: ['image_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 124 },
    priceSource: 'fal.ai/models/fal-ai/bytedance/seedance/v1/pro/image-to-video: about $0.62 per 5 s 1080p video → $0.124/s',
    limits: { minDurationS: 2, maxDurationS: 12, aspectRatios: ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] },
  }),
  video({
    slug: 'seedance-1-pro-fast', name: 'Seedance 1.0 Pro Fast', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/bytedance/seedance/v1/pro/fast/text-to-video' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 49 },
    priceSource: 'fal.ai/models/fal-ai/bytedance/seedance/v1/pro/fast/text-to-video: about $0.245 per 5 s 1080p video → $0.049/s',
    limits: { minDurationS: 2, maxDurationS: 12, aspectRatios: ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] },
  }),
  video({
    slug: 'luma-ray-2', name: 'Luma Ray 2', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/luma-dream-machine/ray-2' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 100 },
    priceSource: 'fal.ai/models/fal-ai/luma-dream-machine/ray-2: $0.50 per 5 s video at 540p → $0.10/s',
    limits: { durationsS: [5, 9], aspectRatios: ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] },
  }),
  video({
    slug: 'luma-ray-2-flash', name: 'Luma Ray 2 Flash', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/luma-dream-machine/ray-2-flash' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 40 },
    priceSource: 'fal.ai/models/fal-ai/luma-dream-machine/ray-2-flash: $0.20 per 5 s video at 540p → $0.04/s',
    limits: { durationsS: [5, 9], aspectRatios: ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] },
  }),

  // ── voice (sync) ─ per 1k characters (tts, voice clone) or per minute of audio (transcription) ─
  voice({
    slug: 'eleven-multilingual-v2', name: 'ElevenLabs Multilingual v2', tier: 'standard',
    routes: [{ provider: 'elevenlabs', model: 'eleven_multilingual_v2' }],
    capabilities: ['text_to_voice', 'voice_clone'],
    pricing: { unit: '1k_characters', creditsPerUnit: 100 },
    priceSource: 'elevenlabs.io/pricing/api: Multilingual v2/v3, $0.10 per 1,000 characters',
    limits: { maxTextChars: 10_000 },
  }),
  voice({
    slug: 'eleven-flash-v2.5', name: 'ElevenLabs Flash v2.5', tier: 'fast',
    routes: [{ provider: 'elevenlabs', model: 'eleven_flash_v2_5' }],
    capabilities: ['text_to_voice', 'voice_clone'],
    pricing: { unit: '1k_characters', creditsPerUnit: 50 },
    priceSource: 'elevenlabs.io/pricing/api: Flash/Turbo, $0.05 per 1,000 characters',
    limits: { maxTextChars: 40_000 },
  }),
  voice({
    slug: 'eleven-v3', name: 'Eleven v3', tier: 'pro',
    routes: [{ provider: 'elevenlabs', model: 'eleven_v3' }],
    capabilities: ['text_to_voice'],
    pricing: { unit: '1k_characters', creditsPerUnit: 100 },
    priceSource: 'elevenlabs.io/pricing/api: Multilingual v2/v3, $0.10 per 1,000 characters',
    limits: { maxTextChars: 5_000 },
  }),
  voice({
    slug: 'eleven-scribe', name: 'ElevenLabs Scribe', tier: 'standard',
    routes: [{ provider: 'elevenlabs', model: 'scribe_v1' }],
    capabilities: ['transcription'],
    pricing: { unit: 'minute', creditsPerUnit: 3.67 },
    priceSource: 'elevenlabs.io/pricing/api: Scribe speech to text, $0.22 per hour of audio → $0.00367/min',
    limits: { maxAudioS: 36_000 },
  }),
  voice({
    slug: 'openai-tts-1', name: 'OpenAI TTS', tier: 'fast',
    routes: [{ provider: 'openai', model: 'tts-1' }],
    capabilities: ['text_to_voice'],
    pricing: { unit: '1k_characters', creditsPerUnit: 15 },
    priceSource: 'platform.openai.com/docs/pricing: tts-1, $15.00 per 1M characters → $0.015 per 1k',
    limits: { maxTextChars: 4_096 },
  }),
  voice({
    slug: 'openai-tts-1-hd', name: 'OpenAI TTS HD', tier: 'standard',
    routes: [{ provider: 'openai', model: 'tts-1-hd' }],
    capabilities: ['text_to_voice'],
    pricing: { unit: '1k_characters', creditsPerUnit: 30 },
    priceSource: 'platform.openai.com/docs/pricing: tts-1-hd, $30.00 per 1M characters → $0.03 per 1k',
    limits: { maxTextChars: 4_096 },
  }),
  voice({
    slug: 'whisper-1', name: 'OpenAI Whisper', tier: 'standard',
    routes: [{ provider: 'openai', model: 'whisper-1' }],
    capabilities: ['transcription'],
    pricing: { unit: 'minute', creditsPerUnit: 6 },
    priceSource: 'platform.openai.com/docs/pricing: whisper-1, $0.006 per minute',
    limits: { maxAudioS: 1_500 },
  }),
  voice({
    slug: 'gpt-4o-transcribe', name: 'GPT-4o Transcribe', tier: 'pro',
    routes: [{ provider: 'openai', model: 'gpt-4o-transcribe' }],
    capabilities: ['transcription'],
    pricing: { unit: 'minute', creditsPerUnit: 6 },
    priceSource:
      "platform.openai.com/docs/pricing: gpt-4o-transcribe, $0.006 per minute (OpenAI's estimate from its audio-token price)",
    limits: { maxAudioS: 1_500 },
  }),

  // ── music (async) ─ per song or per second of output ───────────────────────────────────────────
  music({
    slug: 'eleven-music', name: 'Eleven Music', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'elevenlabs', model: 'music_v1' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'second', creditsPerUnit: 13.34 },
    priceSource: 'elevenlabs.io/pricing/api: Eleven Music, $0.80 per minute → $0.01334/s (list price, 2025)',
    limits: SONG,
  }),
  music({
    slug: 'minimax-music-v2', name: 'MiniMax Music 2.0', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/minimax-music/v2' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'song', creditsPerUnit: 30 },
    priceSource: 'fal.ai/models/fal-ai/minimax-music/v2: $0.03 per generation',
    limits: SONG,
  }),
  music({
    slug: 'minimax-music-v1.5', name: 'MiniMax Music 1.5', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/minimax-music/v1.5' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'song', creditsPerUnit: 30 },
    priceSource: 'fal.ai/models/fal-ai/minimax-music/v1.5: $0.03 per generation',
    limits: SONG,
  }),
  music({
    // A Suno-style song model: lyrics and vocals, up to 240 s.
    slug: 'ace-step', name: 'ACE-Step', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/ace-step/prompt-to-audio' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'second', creditsPerUnit: 0.2 },
    priceSource: 'fal.ai/models/fal-ai/ace-step/prompt-to-audio: $0.0002 per second of generated audio',
    limits: SONG,
  }),
  music({
    slug: 'lyria-2', name: 'Lyria 2', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/lyria2' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'song', creditsPerUnit: 100 },
    priceSource: 'fal.ai/models/fal-ai/lyria2: $0.10 per 30 s clip (list price, 2025)',
    limits: { minDurationS: 30, maxDurationS: 30 },
  }),
  music({
    slug: 'stable-audio-2.5', name: 'Stable Audio 2.5', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/stable-audio-25/text-to-audio' }],
    capabilities: ['text_to_music'],
    pricing: { unit: 'song', creditsPerUnit: 200 },
    priceSource: 'fal.ai/models/fal-ai/stable-audio-25/text-to-audio: $0.20 per audio clip',
    limits: SONG,
  }),

  // ── avatar (async) ─ per second of output ──────────────────────────────────────────────────────
  // The spec has no text-to-avatar capability: a model that makes a presenter speak a text carries
  // `text_to_video` (it takes the text body), a model that syncs lips to a given audio carries
  // `lipsync` (the lipsync body); domain/avatars.ts reads them. A portrait model (`animatesPortrait`)
  // takes its portrait from image_url, the stock avatar of avatar_id, or the first frame of
  // video_url, and serves lipsync on its provider's audio endpoint (fal/model-inputs.ts).
  avatar({
    // HeyGen-style stock presenters, chosen by avatar_id.
    slug: 'veed-avatars', name: 'VEED Avatars', tier: 'standard',
    routes: [{ provider: 'fal', model: 'veed/avatars/text-to-video' }],
    capabilities: ['text_to_video'],
    pricing: { unit: 'second', creditsPerUnit: 50 },
    priceSource: 'fal.ai/models/veed/avatars/text-to-video: $0.05 per second of video (list price, 2025)',
    limits: { maxDurationS: 120, maxTextChars: 2_000 },
  }),
  avatar({
    slug: 'veed-fabric-1.0', name: 'VEED Fabric 1.0', tier: 'standard', animatesPortrait: true,
    // Text on veed/fabric-1.0/text, lipsync (portrait + audio) on veed/fabric-1.0, both 720p.
    routes: [{ provider: 'fal', model: 'veed/fabric-1.0/text' }],
    capabilities: ['text_to_video', 'lipsync'],
    pricing: { unit: 'second', creditsPerUnit: 150 },
    priceSource: 'fal.ai/models/veed/fabric-1.0/text and veed/fabric-1.0: $0.15 per second at 720p ($0.08 at 480p)',
    limits: { maxDurationS: 60, maxTextChars: 2_000, maxAudioS: 60 },
  }),
  avatar({
    // Text on fal-ai/ai-avatar/single-text (fal speaks it), lipsync (portrait + audio) on fal-ai/ai-avatar.
    slug: 'multitalk', name: 'MultiTalk avatar', tier: 'standard', animatesPortrait: true,
    routes: [{ provider: 'fal', model: 'fal-ai/ai-avatar/single-text' }],
    capabilities: ['text_to_video', 'lipsync'],
    pricing: { unit: 'second', creditsPerUnit: 200 },
    priceSource: 'fal.ai/models/fal-ai/ai-avatar: $0.20 per second (MultiTalk family)',
    limits: { maxDurationS: 10, maxTextChars: 1_000, maxAudioS: 10 },
  }),
  avatar({
    // Hedra-style: a still portrait plus audio becomes a speaking presenter. It takes no text (fal's
    // endpoint has no speech of its own), so text-to-avatar is refused rather than voiced elsewhere.
    slug: 'omnihuman-1.5', name: 'OmniHuman 1.5', tier: 'pro', studioPlus: true, animatesPortrait: true,
    routes: [{ provider: 'fal', model: 'fal-ai/bytedance/omnihuman/v1.5' }],
    capabilities: ['lipsync'],
    pricing: { unit: 'second', creditsPerUnit: 160 },
    priceSource: 'fal.ai/learn/devs/omnihuman-15-user-guide: $0.16 per second of video',
    limits: { maxDurationS: 60, maxAudioS: 60 },
  }),
  avatar({
    slug: 'sync-lipsync-2', name: 'Sync Lipsync 2.0', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/sync-lipsync/v2' }],
    capabilities: ['lipsync'],
    pricing: { unit: 'second', creditsPerUnit: 50 },
    priceSource: 'fal.ai/models/fal-ai/sync-lipsync/v2: $3 per minute of video → $0.05/s',
    limits: { maxDurationS: 300, maxAudioS: 300 },
  }),
  avatar({
    slug: 'latentsync', name: 'LatentSync', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/latentsync' }],
    capabilities: ['lipsync'],
    pricing: { unit: 'second', creditsPerUnit: 5 },
    priceSource:
      'fal.ai/models/fal-ai/latentsync: $0.20 per video up to 40 s, then $0.005/s → $0.005/s (the $0.20 floor is not passed on)',
    limits: { maxDurationS: 120, maxAudioS: 120 },
  }),

  // ── chat (sync) ─ per 1M output tokens (the provider's output price) ───────────────────────────
  chat({
    slug: 'gpt-5', name: 'GPT-5', tier: 'pro',
    routes: [{ provider: 'openai', model: 'gpt-5' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 10_000 },
    priceSource: 'openai.com/api/pricing: GPT-5, $10.00 per 1M output tokens',
    limits: { contextTokens: 400_000, maxOutputTokens: 128_000 },
  }),
  chat({
    slug: 'gpt-5-mini', name: 'GPT-5 mini', tier: 'standard',
    routes: [{ provider: 'openai', model: 'gpt-5-mini' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 2_000 },
    priceSource: 'openai.com/api/pricing: GPT-5 mini, $2.00 per 1M output tokens',
    limits: { contextTokens: 400_000, maxOutputTokens: 128_000 },
  }),
  chat({
    slug: 'claude-opus-4.1', name: 'Claude Opus 4.1', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'anthropic', model: 'claude-opus-4-1-20250805' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 75_000 },
    priceSource: 'anthropic.com/pricing#api: Claude Opus 4.1, $75 per 1M output tokens',
    limits: { contextTokens: 200_000, maxOutputTokens: 32_000 },
  }),
  chat({
    slug: 'claude-sonnet-4.5', name: 'Claude Sonnet 4.5', tier: 'pro',
    routes: [{ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 15_000 },
    priceSource: 'anthropic.com/pricing#api: Claude Sonnet 4.5, $15 per 1M output tokens (prompts up to 200k tokens)',
    limits: { contextTokens: 200_000, maxOutputTokens: 64_000 },
  }),
  chat({
    slug: 'claude-haiku-4.5', name: 'Claude Haiku 4.5', tier: 'fast',
    routes: [{ provider: 'anthropic', model: 'claude-haiku-4-5-20251001' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 5_000 },
    priceSource: 'anthropic.com/pricing#api: Claude Haiku 4.5, $5 per 1M output tokens',
    limits: { contextTokens: 200_000, maxOutputTokens: 64_000 },
  }),
  chat({
    slug: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', tier: 'pro',
    routes: [{ provider: 'openai_compatible', model: 'gemini-2.5-pro' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 10_000 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Gemini 2.5 Pro, $10.00 per 1M output tokens (prompts up to 200k tokens)',
    limits: { contextTokens: 1_048_576, maxOutputTokens: 65_536 },
  }),
  chat({
    slug: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', tier: 'standard',
    routes: [{ provider: 'openai_compatible', model: 'gemini-2.5-flash' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 2_500 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Gemini 2.5 Flash, $2.50 per 1M output tokens',
    limits: { contextTokens: 1_048_576, maxOutputTokens: 65_536 },
  }),
  chat({
    slug: 'gemini-2.5-flash-lite', name: 'Gemini 2.5 Flash-Lite', tier: 'fast',
    routes: [{ provider: 'openai_compatible', model: 'gemini-2.5-flash-lite' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 400 },
    priceSource: 'ai.google.dev/gemini-api/docs/pricing: Gemini 2.5 Flash-Lite, $0.40 per 1M output tokens',
    limits: { contextTokens: 1_048_576, maxOutputTokens: 65_536 },
  }),
  chat({
    slug: 'llama-3.3-70b', name: 'Llama 3.3 70B Instruct Turbo', tier: 'fast',
    routes: [{ provider: 'openai_compatible', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo' }],
    capabilities: ['text_to_text', 'tool_use'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 880 },
    priceSource: 'together.ai/pricing: Llama 3.3 70B Instruct Turbo, $0.88 per 1M tokens (input and output)',
    limits: { contextTokens: 131_072, maxOutputTokens: 8_192 },
  }),
  chat({
    slug: 'llama-4-maverick', name: 'Llama 4 Maverick', tier: 'standard',
    routes: [{ provider: 'openai_compatible', model: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8' }],
    capabilities: ['text_to_text', 'tool_use', 'multimodal_input'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 850 },
    priceSource: 'together.ai/pricing: Llama 4 Maverick, $0.85 per 1M output tokens',
    limits: { contextTokens: 1_048_576, maxOutputTokens: 8_192 },
  }),
  chat({
    slug: 'deepseek-chat', name: 'DeepSeek V3.2 (chat)', tier: 'fast',
    routes: [{ provider: 'openai_compatible', model: 'deepseek-chat' }],
    capabilities: ['text_to_text', 'tool_use'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 420 },
    priceSource: 'api-docs.deepseek.com/quick_start/pricing: deepseek-chat, $0.42 per 1M output tokens',
    limits: { contextTokens: 128_000, maxOutputTokens: 8_000 },
  }),
  chat({
    slug: 'deepseek-reasoner', name: 'DeepSeek V3.2 (reasoner)', tier: 'standard',
    routes: [{ provider: 'openai_compatible', model: 'deepseek-reasoner' }],
    capabilities: ['text_to_text'],
    pricing: { unit: '1m_output_tokens', creditsPerUnit: 420 },
    priceSource: 'api-docs.deepseek.com/quick_start/pricing: deepseek-reasoner, $0.42 per 1M output tokens',
    limits: { contextTokens: 128_000, maxOutputTokens: 64_000 },
  }),

  // ── 3d (async) ─ per generated model (GLB mesh) ────────────────────────────────────────────────
  threeD({
    slug: 'trellis', name: 'TRELLIS', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/trellis' }],
    capabilities: ['image_to_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 20 },
    priceSource: 'fal.ai/models/fal-ai/trellis: $0.02 per generation',
  }),
  threeD({
    slug: 'hunyuan3d-v2', name: 'Hunyuan3D 2.0', tier: 'standard',
    routes: [{ provider: 'fal', model: 'fal-ai/hunyuan3d/v2' }],
    capabilities: ['image_to_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 480 },
    priceSource: 'fal.ai/models/fal-ai/hunyuan3d/v2: $0.16 per mesh, 3x for a textured mesh → $0.48 (list price, 2025)',
  }),
  threeD({
    slug: 'tripo-v2.5-text', name: 'Tripo v2.5 (text to 3D)', tier: 'standard',
    routes: [{ provider: 'fal', model: 'tripo3d/tripo/v2.5/text-to-3d' }],
    capabilities: ['text_to_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 300 },
    priceSource:
      'fal.ai/models/tripo3d/tripo/v2.5/text-to-3d: Tripo credits at $0.01, 20 per model + 10 for textures → $0.30 (list price, 2025)',
  }),
  threeD({
    slug: 'tripo-v2.5-image', name: 'Tripo v2.5 (image to 3D)', tier: 'standard',
    routes: [{ provider: 'fal', model: 'tripo3d/tripo/v2.5/image-to-3d' }],
    capabilities: ['image_to_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 300 },
    priceSource:
      'fal.ai/models/tripo3d/tripo/v2.5/image-to-3d: Tripo credits at $0.01, 20 per model + 10 for textures → $0.30 (list price, 2025)',
  }),
  threeD({
    slug: 'meshy-6-text', name: 'Meshy 6 (text to 3D)', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/meshy/v6-preview/text-to-3d' }],
    capabilities: ['text_to_3d', 'rigged_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 3_500 },
    priceSource:
      'fal.ai/models/fal-ai/meshy/v6-preview: $3.00 per textured model + $0.50 auto-rigging → $3.50 (every request priced as rigged)',
  }),
  threeD({
    slug: 'meshy-6-image', name: 'Meshy 6 (image to 3D)', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/meshy/v6-preview/image-to-3d' }],
    capabilities: ['image_to_3d', 'rigged_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 3_500 },
    priceSource:
      'fal.ai/models/fal-ai/meshy/v6-preview: $3.00 per textured model + $0.50 auto-rigging → $3.50 (every request priced as rigged)',
  }),
  threeD({
    slug: 'rodin', name: 'Hyper3D Rodin', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/hyper3d/rodin' }],
    capabilities: ['text_to_3d', 'image_to_3d'],
    pricing: { unit: '3d_model', creditsPerUnit: 400 },
    priceSource: 'fal.ai/models/fal-ai/hyper3d/rodin: $0.40 per generation',
  }),

  // ── upscale (async) ─ per output megapixel ─────────────────────────────────────────────────────
  // Replicate bills these per GPU second; the per-run price is spread over a typical ~4 Mpx output
  // (a 2x upscale of a 1 Mpx image).
  upscale({
    slug: 'real-esrgan', name: 'Real-ESRGAN', tier: 'fast',
    routes: [{ provider: 'replicate', model: 'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa' }],
    capabilities: ['image_upscale', 'face_restore'],
    pricing: { unit: 'megapixel', creditsPerUnit: 0.5 },
    priceSource:
      'replicate.com/nightmareai/real-esrgan: about $0.002 per run, ~4 Mpx output → $0.0005 per output Mpx (list price, 2025)',
    limits: { scaleFactors: [2, 4], maxInputMpx: 4 },
  }),
  upscale({
    slug: 'codeformer', name: 'CodeFormer', tier: 'standard',
    routes: [{ provider: 'replicate', model: 'sczhou/codeformer:cc4956dd26fa5a7185d5660cc9100fab1b8070a1d1654a8bb5eb6d443b020bb2' }],
    capabilities: ['image_upscale', 'face_restore'],
    pricing: { unit: 'megapixel', creditsPerUnit: 1 },
    priceSource:
      'replicate.com/sczhou/codeformer: about $0.004 per run, ~4 Mpx output → $0.001 per output Mpx (list price, 2025)',
    limits: { scaleFactors: [2, 4], maxInputMpx: 4 },
  }),
  upscale({
    slug: 'gfpgan', name: 'GFPGAN', tier: 'fast',
    routes: [{ provider: 'replicate', model: 'tencentarc/gfpgan:0fbacf7afc6c144e5be9767cff80f25aff23e52b0708f17e20f9879b2f21516c' }],
    capabilities: ['image_upscale', 'face_restore'],
    pricing: { unit: 'megapixel', creditsPerUnit: 0.5 },
    priceSource:
      'replicate.com/tencentarc/gfpgan: about $0.002 per run, ~4 Mpx output → $0.0005 per output Mpx (list price, 2025)',
    limits: { scaleFactors: [2, 4], maxInputMpx: 4 },
  }),
  upscale({
    slug: 'aura-sr', name: 'AuraSR', tier: 'fast',
    routes: [{ provider: 'fal', model: 'fal-ai/aura-sr' }],
    capabilities: ['image_upscale'],
    pricing: { unit: 'megapixel', creditsPerUnit: 0.16 },
    priceSource:
      'fal.ai/models/fal-ai/aura-sr: about $0.0025 per image, a 4x upscale of 1 Mpx is 16 Mpx → $0.00016 per output Mpx (list price, 2025)',
    limits: { scaleFactors: [4], maxInputMpx: 4 },
  }),
  upscale({
    slug: 'clarity-upscaler', name: 'Clarity Upscaler', tier: 'pro', studioPlus: true,
    routes: [{ provider: 'fal', model: 'fal-ai/clarity-upscaler' }],
    capabilities: ['image_upscale'],
    pricing: { unit: 'megapixel', creditsPerUnit: 30 },
    priceSource: 'fal.ai/models/fal-ai/clarity-upscaler: $0.03 per megapixel',
    limits: { scaleFactors: [2, 4], maxInputMpx: 4 },
  }),
];

import { DEFAULT_AVATAR_ID, findStockAvatar } from '../../../domain/avatars';
import { PROVIDER_ERROR_CODES } from '../http-failure';
import { ProviderError } from '../types';

// Each fal model's own input schema (as its model page and the SDK's endpoint types document it),
// built from one request already read out of our parameters. A model id not listed here (a route
// added through MODEL_ROUTES) gets its modality's common fal shape.

export type FalInput = Record<string, unknown>;

export interface ImageAsk {
  prompt: string;
  aspectRatio: string;
  width: number;
  height: number;
  count: number;
  seed?: number;
  negativePrompt?: string;
  imageUrl?: string;
}
export interface VideoAsk {
  prompt: string;
  durationS: number;
  aspectRatio?: string;
  seed?: number;
  imageUrl?: string;
}
export interface MusicAsk {
  prompt: string;
  durationS: number;
  withVocals: boolean;
  seed?: number;
}
export interface TextAvatarAsk {
  text: string;
  avatarId?: string;
  voiceId?: string;
  seed?: number;
  /** A portrait to animate, for the models that animate a photo (an `image` input of the job). */
  portraitUrl?: string;
}
export interface LipsyncAsk {
  /** The video whose lips are synced; a portrait model animates `portraitUrl` (its first frame, or image_url) instead. */
  videoUrl?: string;
  audioUrl: string;
  seed?: number;
  portraitUrl?: string;
}
export interface ThreeDAsk {
  prompt: string;
  imageUrl?: string;
  textureSize: number;
  complexity: 'low' | 'medium' | 'high';
  rigged: boolean;
  seed?: number;
}
export interface UpscaleAsk {
  imageUrl: string;
  scale: number;
}

/** Where a request with an input image goes, for the models that take it on an endpoint of its own. */
export const INPUT_IMAGE_ENDPOINTS: Record<string, string> = {
  'fal-ai/flux/dev': 'fal-ai/flux/dev/image-to-image',
  'fal-ai/veo3': 'fal-ai/veo3/image-to-video',
  'fal-ai/veo3/fast': 'fal-ai/veo3/fast/image-to-video',
};

/**
 * The portrait avatar models whose fal text endpoint has a sibling for lipsync: the same model
 * animating the portrait to a given audio (fal model pages: veed/fabric-1.0, fal-ai/ai-avatar).
 */
export const LIPSYNC_ENDPOINTS: Record<string, string> = {
  'veed/fabric-1.0/text': 'veed/fabric-1.0',
  'fal-ai/ai-avatar/single-text': 'fal-ai/ai-avatar',
};

/** MiniMax Music needs lyrics; an instrumental is asked for with a structure tag and no words. */
const INSTRUMENTAL_LYRICS = '[Instrumental]';
const DEFAULT_MULTITALK_VOICE = 'Sarah';
/** Polygon budgets for mesh_complexity on the models that take one. */
const POLYCOUNT = { low: 10_000, medium: 30_000, high: 100_000 } as const;

const imageSize = (r: ImageAsk) => ({ image_size: { width: r.width, height: r.height } });
const byAspectRatio = (r: ImageAsk): FalInput => ({ prompt: r.prompt, aspect_ratio: r.aspectRatio, num_images: r.count, seed: r.seed, image_url: r.imageUrl });

export const IMAGE_INPUTS: Record<string, (r: ImageAsk) => FalInput> = {
  // FLUX answers JPEG unless asked: decisions §6 promises PNG or WebP images.
  'fal-ai/flux-pro/v1.1-ultra': (r) => ({ ...byAspectRatio(r), output_format: 'png' }),
  'fal-ai/imagen4/preview': byAspectRatio,
  'fal-ai/imagen4/preview/fast': byAspectRatio,
  // Priced at the BALANCED rendering speed (catalog).
  'fal-ai/ideogram/v3': (r) => ({ prompt: r.prompt, ...imageSize(r), num_images: r.count, seed: r.seed, negative_prompt: r.negativePrompt, rendering_speed: 'BALANCED' }),
  'fal-ai/recraft/v3/text-to-image': (r) => ({ prompt: r.prompt, ...imageSize(r) }),
};
/** FLUX.1 [schnell], [dev] (and its image-to-image endpoint), FLUX1.1 [pro]: the common shape, as PNG (FLUX's default is JPEG). */
export const defaultImageInput = (r: ImageAsk): FalInput => ({
  prompt: r.prompt,
  ...imageSize(r),
  num_images: r.count,
  seed: r.seed,
  image_url: r.imageUrl,
  output_format: 'png',
});

const kling = (r: VideoAsk): FalInput => ({ prompt: r.prompt, duration: String(r.durationS), image_url: r.imageUrl, ...(!r.imageUrl && { aspect_ratio: r.aspectRatio }) });
// Priced at 1080p (Seedance) and 540p (Luma), as the catalog's prices are.
const seedance = (r: VideoAsk): FalInput => ({
  prompt: r.prompt,
  duration: String(r.durationS),
  aspect_ratio: r.aspectRatio,
  resolution: '1080p',
  seed: r.seed,
  image_url: r.imageUrl,
});
const luma = (r: VideoAsk): FalInput => ({ prompt: r.prompt, duration: `${r.durationS}s`, aspect_ratio: r.aspectRatio, resolution: '540p' });
const veo = (r: VideoAsk): FalInput => ({ prompt: r.prompt, duration: `${r.durationS}s`, aspect_ratio: r.aspectRatio, seed: r.seed, image_url: r.imageUrl });

export const VIDEO_INPUTS: Record<string, (r: VideoAsk) => FalInput> = {
  'fal-ai/kling-video/v2.1/master/text-to-video': kling,
  'fal-ai/kling-video/v2.1/pro/image-to-video': kling,
  'fal-ai/minimax/hailuo-02/standard/text-to-video': (r) => ({ prompt: r.prompt, duration: String(r.durationS) }),
  'fal-ai/bytedance/seedance/v1/pro/image-to-video': seedance,
  'fal-ai/bytedance/seedance/v1/pro/fast/text-to-video': seedance,
  'fal-ai/luma-dream-machine/ray-2': luma,
  'fal-ai/luma-dream-machine/ray-2-flash': luma,
  'fal-ai/veo3': veo,
  'fal-ai/veo3/fast': veo,
};
export const defaultVideoInput = (r: VideoAsk): FalInput => ({
  prompt: r.prompt,
  duration: String(r.durationS),
  aspect_ratio: r.aspectRatio,
  seed: r.seed,
  image_url: r.imageUrl,
});

// MiniMax takes a style description (10-300 characters) and lyrics (10-3,000): our prompt is both
// the style and, for a song with vocals, what is sung.
const minimax = (r: MusicAsk): FalInput => ({ prompt: clip(r.prompt, 300), lyrics_prompt: r.withVocals ? clip(r.prompt, 3_000) : INSTRUMENTAL_LYRICS });

export const MUSIC_INPUTS: Record<string, (r: MusicAsk) => FalInput> = {
  'fal-ai/minimax-music/v2': minimax,
  'fal-ai/minimax-music/v1.5': minimax,
  'fal-ai/ace-step/prompt-to-audio': (r) => ({ prompt: r.prompt, duration: r.durationS, instrumental: !r.withVocals, seed: r.seed }),
  // Lyria 2 always makes a 30 s clip (the catalog's only duration for it).
  'fal-ai/lyria2': (r) => ({ prompt: r.prompt, seed: r.seed }),
  'fal-ai/stable-audio-25/text-to-audio': (r) => ({ prompt: r.prompt, seconds_total: r.durationS, seed: r.seed }),
};
export const defaultMusicInput = (r: MusicAsk): FalInput => ({ prompt: r.prompt, duration: r.durationS, seed: r.seed });

/** MultiTalk wants a scene description as well as the words or audio; ours has none to give. */
const MULTITALK_SCENE = 'A person talking to the camera.';

export const TEXT_AVATAR_INPUTS: Record<string, (r: TextAvatarAsk) => FalInput> = {
  'veed/avatars/text-to-video': (r) => ({ avatar_id: veedPresenter(r.avatarId), text: r.text }),
  'veed/fabric-1.0/text': (r) => ({ image_url: portrait(r.portraitUrl, 'VEED Fabric 1.0'), text: r.text, resolution: '720p' }),
  'fal-ai/ai-avatar/single-text': (r) => ({
    image_url: portrait(r.portraitUrl, 'MultiTalk'),
    text_input: r.text,
    voice: r.voiceId ?? DEFAULT_MULTITALK_VOICE,
    prompt: MULTITALK_SCENE,
    seed: r.seed,
  }),
};
export const defaultTextAvatarInput = (r: TextAvatarAsk): FalInput => ({ text: r.text, avatar_id: r.avatarId, voice_id: r.voiceId });

export const LIPSYNC_INPUTS: Record<string, (r: LipsyncAsk) => FalInput> = {
  // Sync is asked to loop the video to the audio's end, so the clip lasts the audio the reservation
  // was made on (`cut_off` would stop at the shorter of the two, `silence` at the longer).
  'fal-ai/sync-lipsync/v2': (r) => ({ video_url: r.videoUrl, audio_url: r.audioUrl, sync_mode: 'loop' }),
  'fal-ai/latentsync': (r) => ({ video_url: r.videoUrl, audio_url: r.audioUrl, seed: r.seed }),
  'fal-ai/bytedance/omnihuman/v1.5': (r) => ({ image_url: portrait(r.portraitUrl, 'OmniHuman 1.5'), audio_url: r.audioUrl }),
  'veed/fabric-1.0': (r) => ({ image_url: portrait(r.portraitUrl, 'VEED Fabric 1.0'), audio_url: r.audioUrl, resolution: '720p' }),
  'fal-ai/ai-avatar': (r) => ({ image_url: portrait(r.portraitUrl, 'MultiTalk'), audio_url: r.audioUrl, prompt: MULTITALK_SCENE, seed: r.seed }),
};
/** The common lipsync shape (a route added through MODEL_ROUTES): the video and the audio. */
export const defaultLipsyncInput = (r: LipsyncAsk): FalInput => ({ video_url: r.videoUrl, audio_url: r.audioUrl });

const tripo = (r: ThreeDAsk): FalInput => ({
  prompt: r.imageUrl ? undefined : r.prompt,
  image_url: r.imageUrl,
  texture: r.textureSize >= 4096 ? 'HD' : 'standard',
  face_limit: r.complexity === 'medium' ? undefined : POLYCOUNT[r.complexity],
  seed: r.seed,
});
const meshy = (r: ThreeDAsk): FalInput => ({
  ...(r.imageUrl ? { image_url: r.imageUrl, should_texture: true } : { prompt: r.prompt, mode: 'full', seed: r.seed }),
  target_polycount: POLYCOUNT[r.complexity],
  enable_rigging: r.rigged,
});

export const THREE_D_INPUTS: Record<string, (r: ThreeDAsk) => FalInput> = {
  'fal-ai/trellis': (r) => ({
    image_url: r.imageUrl,
    texture_size: String(Math.min(r.textureSize, 2048)),
    mesh_simplify: { low: 0.98, medium: 0.95, high: 0.9 }[r.complexity],
    seed: r.seed,
  }),
  // Priced as a textured mesh (catalog).
  'fal-ai/hunyuan3d/v2': (r) => ({ input_image_url: r.imageUrl, textured_mesh: true, seed: r.seed }),
  'tripo3d/tripo/v2.5/text-to-3d': tripo,
  'tripo3d/tripo/v2.5/image-to-3d': tripo,
  'fal-ai/meshy/v6-preview/text-to-3d': meshy,
  'fal-ai/meshy/v6-preview/image-to-3d': meshy,
  'fal-ai/hyper3d/rodin': (r) => ({
    prompt: r.prompt,
    input_image_urls: r.imageUrl ? [r.imageUrl] : undefined,
    geometry_file_format: 'glb',
    material: 'PBR',
    quality: r.complexity,
    seed: r.seed,
  }),
};
export const defaultThreeDInput = (r: ThreeDAsk): FalInput => ({ prompt: r.prompt, image_url: r.imageUrl, seed: r.seed });

/** AuraSR, Clarity Upscaler and the common shape. */
export const upscaleInput = (r: UpscaleAsk): FalInput => ({ image_url: r.imageUrl, upscale_factor: r.scale });

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/**
 * A stock avatar id (domain/avatars.ts) names its VEED presenter; none names the default's. An id
 * outside the stock set (a job accepted before ids were checked) is passed on as VEED's own.
 */
function veedPresenter(avatarId: string | undefined): string {
  return findStockAvatar(avatarId ?? DEFAULT_AVATAR_ID)?.veedPresenter ?? avatarId!;
}

/**
 * The photo-animating avatar models need a portrait image: the API always stores one (image_url,
 * a stock portrait, or the video's first frame), so its absence is a job built elsewhere.
 */
function portrait(url: string | undefined, model: string): string {
  if (url) return url;
  throw new ProviderError(
    PROVIDER_ERROR_CODES.rejected,
    `${model} animates a portrait photo, and this request carries no image to animate. Choose an avatar model that needs no photo.`,
    false,
    { source: 'gateway' },
  );
}

import type { ModelEntry } from './catalog';

// The two bodies of POST /v1/avatars (decisions §10) and what each avatar model takes, plus the
// stock avatars an `avatar_id` names. One rule, read by the API (which body a model takes), the
// models list (`inputs`) and the provider adapters (which presenter or portrait an id means).

/** The two request shapes: text-to-avatar `{text, avatar_id?, voice_id?}`, lipsync `{video_url, audio_url}`. */
export type AvatarShape = 'text' | 'lipsync';

/** What GET /v1/models lists per avatar model: the shapes it takes, and `image_url` when it animates a portrait. */
export type AvatarInput = AvatarShape | 'image_url';

/**
 * The shapes a model's capabilities name: `text_to_video` (a presenter speaks a text) takes the
 * text body, `lipsync` the lipsync body. A model that animates a portrait also takes `image_url`.
 */
export function avatarInputs(model: ModelEntry): AvatarInput[] {
  const inputs: AvatarInput[] = [];
  if (model.capabilities.includes('text_to_video')) inputs.push('text');
  if (model.capabilities.includes('lipsync')) inputs.push('lipsync');
  if (model.animatesPortrait) inputs.push('image_url');
  return inputs;
}

export function takesAvatarShape(model: ModelEntry, shape: AvatarShape): boolean {
  return avatarInputs(model).includes(shape);
}

const SHAPE_BODIES: Record<AvatarShape, string> = {
  text: 'text-to-avatar ({text, avatar_id?, voice_id?})',
  lipsync: 'lipsync ({video_url, audio_url})',
};

/** "text-to-avatar (…) and lipsync (…)": the bodies a model takes, for error messages. */
export function describeAvatarShapes(model: ModelEntry): string {
  return avatarInputs(model)
    .filter((input): input is AvatarShape => input !== 'image_url')
    .map((shape) => SHAPE_BODIES[shape])
    .join(' and ');
}

/**
 * A stock avatar. On a model with its own presenters (VEED Avatars) the id picks the presenter of
 * the same look; on a model that animates a portrait, it picks the portrait rendered from `look`.
 */
export interface StockAvatar {
  id: string;
  name: string;
  /** The VEED Avatars presenter id (fal `veed/avatars/text-to-video`, `avatar_id` enum). */
  veedPresenter: string;
  look: { background: string; skin: string; hair: string; shirt: string; longHair: boolean };
}

export const DEFAULT_AVATAR_ID = 'ava_default';

export const STOCK_AVATARS: readonly StockAvatar[] = [
  {
    id: DEFAULT_AVATAR_ID,
    name: 'Default presenter',
    veedPresenter: 'any_female_primary',
    look: { background: '#dfe7ef', skin: '#e0ac8a', hair: '#3b2a20', shirt: '#2f5d8a', longHair: true },
  },
  {
    id: 'ava_emily',
    name: 'Emily',
    veedPresenter: 'emily_primary',
    look: { background: '#f1e4d8', skin: '#f1c6a7', hair: '#a8642d', shirt: '#7a3b5c', longHair: true },
  },
  {
    id: 'ava_marcus',
    name: 'Marcus',
    veedPresenter: 'marcus_primary',
    look: { background: '#e2ecdf', skin: '#8d5a3b', hair: '#1d1512', shirt: '#3d6b45', longHair: false },
  },
  {
    id: 'ava_elena',
    name: 'Elena',
    veedPresenter: 'elena_primary',
    look: { background: '#e9e2f2', skin: '#c98f6b', hair: '#141010', shirt: '#b0553a', longHair: true },
  },
];

export const STOCK_AVATAR_IDS: readonly string[] = STOCK_AVATARS.map((avatar) => avatar.id);

export function findStockAvatar(id: string): StockAvatar | undefined {
  return STOCK_AVATARS.find((avatar) => avatar.id === id);
}

/** Pixel size of a stock portrait (square, as the portrait models' examples are). */
export const STOCK_PORTRAIT_SIZE_PX = 512;

/**
 * A stock avatar's portrait as SVG: a front-facing head and shoulders on a plain background, the
 * framing the portrait models ask for. Rendered to PNG where it is stored; deterministic, so the
 * same id is the same image everywhere.
 */
export function stockPortraitSvg(avatar: StockAvatar): string {
  const { background, skin, hair, shirt, longHair } = avatar.look;
  const size = STOCK_PORTRAIT_SIZE_PX;
  const backHair = longHair ? `<path d="M166 210 Q160 380 190 420 L322 420 Q352 380 346 210 Z" fill="${hair}"/>` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512">`,
    `<rect width="512" height="512" fill="${background}"/>`,
    backHair,
    `<path d="M96 512 Q104 420 200 396 L312 396 Q408 420 416 512 Z" fill="${shirt}"/>`,
    `<rect x="226" y="330" width="60" height="76" rx="20" fill="${skin}"/>`,
    `<ellipse cx="256" cy="238" rx="92" ry="116" fill="${skin}"/>`,
    `<path d="M162 226 Q164 118 256 114 Q348 118 350 226 Q330 160 256 158 Q182 160 162 226 Z" fill="${hair}"/>`,
    `<ellipse cx="222" cy="236" rx="11" ry="8" fill="#ffffff"/><circle cx="222" cy="236" r="5" fill="#2b2b2b"/>`,
    `<ellipse cx="290" cy="236" rx="11" ry="8" fill="#ffffff"/><circle cx="290" cy="236" r="5" fill="#2b2b2b"/>`,
    `<path d="M206 218 Q222 210 238 218 M274 218 Q290 210 306 218" stroke="${hair}" stroke-width="5" fill="none" stroke-linecap="round"/>`,
    `<path d="M256 246 Q250 276 258 282" stroke="#00000033" stroke-width="4" fill="none" stroke-linecap="round"/>`,
    `<path d="M228 306 Q256 324 284 306" stroke="#8c3b3b" stroke-width="6" fill="none" stroke-linecap="round"/>`,
    '</svg>',
  ].join('');
}

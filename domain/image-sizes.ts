// Output dimensions per aspect ratio: about one megapixel, exact ratios, multiples of 4.

export const ASPECT_RATIOS = ['1:1', '3:2', '2:3', '16:9', '9:16'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export const DEFAULT_ASPECT_RATIO: AspectRatio = '1:1';

const SIZES: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1024, height: 1024 },
  '3:2': { width: 1248, height: 832 },
  '2:3': { width: 832, height: 1248 },
  '16:9': { width: 1344, height: 756 },
  '9:16': { width: 756, height: 1344 },
};

export function imageSize(aspectRatio: AspectRatio): { width: number; height: number } {
  return SIZES[aspectRatio];
}

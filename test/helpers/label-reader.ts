import sharp from 'sharp';
import { fontCharacters, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from '../../activities/providers/simulator-media/bitmap-font';
import { glyphOrigin, layoutLabel, type LabelLayout, type MediaLabel } from '../../activities/providers/simulator-media/label';
import { runFfmpegToFile } from '../../lib/ffmpeg';

// Reads the label of a simulated image or video frame back from its pixels, glyph by glyph against
// the font table: the tests' proof that text is drawn, not just a band.

/** A picture as sharp decodes it: raw RGB, row by row. */
export interface RgbPicture {
  data: Buffer;
  width: number;
  height: number;
}

/** Any image file (PNG, WebP) as raw RGB. */
export async function decodeRgb(file: Buffer): Promise<RgbPicture> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The frame of an MP4 at `seconds`, as raw RGB. */
export async function videoFrame(video: Buffer, seconds: number): Promise<RgbPicture> {
  const png = await runFfmpegToFile('png', (out) => ['-f', 'mp4', '-i', 'pipe:0', '-ss', String(seconds), '-frames:v', '1', out], video);
  return decodeRgb(png);
}

/** The label's layout for this picture, failing when the renderer would have drawn none. */
export function layoutFor(picture: RgbPicture, label: MediaLabel): LabelLayout {
  const layout = layoutLabel(picture.width, picture.height, label);
  if (!layout) throw new Error(`no label fits ${picture.width}x${picture.height}`);
  return layout;
}

/** Whether the pixel at (x, y) is ink: bright, as the white text is and the darkened band never is. */
export function isInk(picture: RgbPicture, x: number, y: number): boolean {
  const i = (y * picture.width + x) * 3;
  const luma = 0.299 * picture.data[i]! + 0.587 * picture.data[i + 1]! + 0.114 * picture.data[i + 2]!;
  return luma >= 128;
}

/**
 * The text of each of `layout`'s line positions, read from the picture: every glyph cell across
 * the width sampled at the centre of each font pixel and looked up in the font table (`\uFFFD` when
 * no glyph matches), trailing blanks dropped.
 */
export function readLabel(picture: RgbPicture, layout: LabelLayout, lineCount = layout.lines.length): string[] {
  const byPattern = new Map(fontCharacters().map((char) => [glyphRows(char)!.join('/'), char]));
  const half = Math.floor(layout.scale / 2);
  const lines: string[] = [];
  for (let line = 0; line < lineCount; line++) {
    let text = '';
    for (let column = 0; glyphOrigin(layout, line, column).x + GLYPH_WIDTH * layout.scale <= picture.width; column++) {
      const origin = glyphOrigin(layout, line, column);
      const rows = [];
      for (let gy = 0; gy < GLYPH_HEIGHT; gy++) {
        let row = '';
        for (let gx = 0; gx < GLYPH_WIDTH; gx++) row += isInk(picture, origin.x + gx * layout.scale + half, origin.y + gy * layout.scale + half) ? '#' : '.';
        rows.push(row);
      }
      text += byPattern.get(rows.join('/')) ?? '\uFFFD';
    }
    lines.push(text.trimEnd());
  }
  return lines;
}

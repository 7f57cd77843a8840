import { ELLIPSIS, FALLBACK_CHAR, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows, toFontText } from './bitmap-font';

// The label a simulated image or video frame carries: the model that ran and the start of the
// prompt, white on a dark band along the bottom edge. Without it every simulated output is an
// abstract pattern, and a gallery of them (a comparison, the dashboard) cannot tell which model made
// which. Drawn with the simulator's own bitmap font, so it needs nothing installed on the host.

export interface MediaLabel {
  /** The model's id as the API names it (`flux-pro`). */
  model: string;
  prompt: string;
}

/** Where a label goes in a picture of a given size, and what it says once fitted. */
export interface LabelLayout {
  /** Font pixels are `scale` x `scale` image pixels. */
  scale: number;
  /** The band's first row; the band runs to the bottom edge, across the whole width. */
  top: number;
  /** The band's height in rows. */
  height: number;
  /** Space between the band's edges and the text, in image pixels. */
  padding: number;
  /** The text, one entry per line, in characters the font draws. */
  lines: string[];
}

/** A glyph and the gap after it, in font pixels. */
const ADVANCE = GLYPH_WIDTH + 1;
/** The gap under a line (the glyphs' descender row is most of the spacing), in font pixels. */
const LINE_GAP = 1;
const LINE_HEIGHT = GLYPH_HEIGHT + LINE_GAP;
/** One font pixel per this many image pixels of the shorter side: 8 px tall glyphs at 256 px, 40 px at 1024. */
const PIXELS_PER_SCALE = 200;
/** How much of the prompt a label shows. */
const EXCERPT_CHARS = 40;
const MAX_PROMPT_LINES = 2;
/** The band never covers more than this share of the picture's height. */
const MAX_BAND_SHARE = 1 / 3;
/** The band keeps a quarter of the picture's brightness under it (image: shift; video: alpha 192/255). */
const BAND_SHIFT = 2;
const BAND_ALPHA = 192;

/**
 * The label fitted to a `width` x `height` picture: the model on the first line, the prompt
 * excerpt (`…` when cut) wrapped on up to two more, each line cut short rather than overflowing.
 * Undefined when not even one line fits (a tiny picture carries no label).
 */
export function layoutLabel(width: number, height: number, label: MediaLabel): LabelLayout | undefined {
  const scale = Math.max(1, Math.round(Math.min(width, height) / PIXELS_PER_SCALE));
  const padding = 2 * scale;
  const perLine = Math.floor((width - 2 * padding + scale) / (ADVANCE * scale));
  const bandHeight = (lines: number) => 2 * padding + (lines * LINE_HEIGHT - LINE_GAP) * scale;
  const maxLines = Math.floor((height * MAX_BAND_SHARE - 2 * padding + LINE_GAP * scale) / (LINE_HEIGHT * scale));
  if (perLine < 1 || maxLines < 1) return undefined;
  const model = cut(toFontText(label.model).trim(), perLine);
  const lines = [model, ...wrap(excerpt(label.prompt), perLine, Math.min(MAX_PROMPT_LINES, maxLines - 1))].filter((line) => line.length > 0);
  if (lines.length === 0) return undefined;
  const band = bandHeight(lines.length);
  return { scale, top: height - band, height: band, padding, lines };
}

/** The top-left image pixel of the glyph at `column` of line `line`. */
export function glyphOrigin(layout: LabelLayout, line: number, column: number): { x: number; y: number } {
  return {
    x: layout.padding + column * ADVANCE * layout.scale,
    y: layout.top + layout.padding + line * LINE_HEIGHT * layout.scale,
  };
}

/**
 * Draws the label into a raw RGB picture, in place: the band's pixels at a quarter of their
 * brightness, the text white. Does nothing on a picture too small for it.
 */
export function drawLabel(rgb: Buffer, width: number, height: number, label: MediaLabel): void {
  const layout = layoutLabel(width, height, label);
  if (!layout) return;
  const mask = textMask(width, layout);
  const start = layout.top * width * 3;
  for (let i = 0; i < mask.length; i++) {
    const offset = start + i * 3;
    if (mask[i]) {
      rgb[offset] = rgb[offset + 1] = rgb[offset + 2] = 255;
    } else {
      rgb[offset] = rgb[offset]! >> BAND_SHIFT;
      rgb[offset + 1] = rgb[offset + 1]! >> BAND_SHIFT;
      rgb[offset + 2] = rgb[offset + 2]! >> BAND_SHIFT;
    }
  }
}

/**
 * The label as a raw RGBA picture of the band alone (`width` x `height` of the layout), to overlay
 * at row `top`: translucent black with opaque white text. Undefined when the picture is too small.
 */
export function labelOverlay(width: number, height: number, label: MediaLabel): { rgba: Buffer; top: number; height: number } | undefined {
  const layout = layoutLabel(width, height, label);
  if (!layout) return undefined;
  const mask = textMask(width, layout);
  const rgba = Buffer.alloc(mask.length * 4);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) rgba.fill(255, i * 4, i * 4 + 4);
    else rgba[i * 4 + 3] = BAND_ALPHA;
  }
  return { rgba, top: layout.top, height: layout.height };
}

/** One byte per pixel of the band, 1 where the text is. */
function textMask(width: number, layout: LabelLayout): Uint8Array {
  const { scale } = layout;
  const mask = new Uint8Array(width * layout.height);
  layout.lines.forEach((text, line) => {
    Array.from(text).forEach((char, column) => {
      const rows = glyphRows(char) ?? glyphRows(FALLBACK_CHAR)!;
      const origin = glyphOrigin(layout, line, column);
      rows.forEach((row, gy) => {
        for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
          if (row[gx] !== '#') continue;
          const x = origin.x + gx * scale;
          for (let dy = 0; dy < scale; dy++) {
            const y = origin.y - layout.top + gy * scale + dy;
            mask.fill(1, y * width + x, y * width + x + scale);
          }
        }
      });
    });
  });
  return mask;
}

/** The start of the prompt in the font's characters: at most `EXCERPT_CHARS`, ending in `…` when cut. */
function excerpt(prompt: string): string {
  return cut(toFontText(prompt).trim(), EXCERPT_CHARS);
}

/** `text` if it has at most `max` characters, else its start and `…` in `max` characters. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}${ELLIPSIS}`;
}

/** Words to lines of at most `perLine` characters (a longer word is split), at most `maxLines` of them, the last ending in `…` when text is left over. */
function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest && lines.length < maxLines) {
    if (rest.length <= perLine) {
      lines.push(rest);
      rest = '';
      break;
    }
    const space = rest.lastIndexOf(' ', perLine);
    const end = space > 0 ? space : perLine;
    lines.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest && lines.length > 0)
    lines[lines.length - 1] = `${lines
      .at(-1)!
      .slice(0, perLine - 1)
      .trimEnd()}${ELLIPSIS}`;
  return lines;
}

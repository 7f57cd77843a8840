import assert from 'node:assert/strict';
import sharp from 'sharp';
import { fontCharacters, glyphRows, toFontText } from '../../activities/providers/simulator-media/bitmap-font';
import { renderImage } from '../../activities/providers/simulator-media/image';
import { renderImageFromInput } from '../../activities/providers/simulator-media/image-to-image';
import { glyphOrigin, layoutLabel } from '../../activities/providers/simulator-media/label';
import { renderVideo, videoSize } from '../../activities/providers/simulator-media/video';
import { decodeRgb, isInk, layoutFor, readLabel, videoFrame, type RgbPicture } from '../helpers/label-reader';

// Issue 38, item 8: simulated images and video frames say which model made them and from what
// prompt, in the simulator's own bitmap font, readable at every size and never overflowing.

const label = { model: 'flux-pro', prompt: 'a red fox in the snow' };

/** Rows [from, to) of a raw RGB picture. */
const rows = (picture: RgbPicture, from: number, to: number) => picture.data.subarray(from * picture.width * 3, to * picture.width * 3);

describe('simulator labels', () => {
  describe('the font', () => {
    it('has a distinct 5x8 glyph for every printable ASCII character and the ellipsis', () => {
      const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
      for (const char of [...ascii, '\u2026']) {
        const glyph = glyphRows(char);
        assert.ok(glyph && glyph.length === 8 && glyph.every((row) => /^[.#]{5}$/.test(row)), `glyph for ${JSON.stringify(char)}`);
      }
      const patterns = new Set(fontCharacters().map((char) => glyphRows(char)!.join('/')));
      assert.equal(patterns.size, fontCharacters().length, 'two characters share a glyph');
    });

    it('writes other characters without their accents where Unicode allows, else as ?', () => {
      assert.equal(toFontText('Crème brûlée\tà la ﬁn 🦊 日本'), 'Creme brulee a la fin ? ??');
    });
  });

  describe('images', () => {
    it('draws the model and the prompt in the font, read back glyph by glyph at scale 1, and changes nothing above the band', async () => {
      const plain = await decodeRgb((await renderImage({ width: 256, height: 256, seed: 's1', format: 'png' })).data);
      const labelled = await decodeRgb((await renderImage({ width: 256, height: 256, seed: 's1', format: 'png', label })).data);
      const layout = layoutFor(labelled, label);
      assert.equal(layout.scale, 1);
      assert.deepEqual(readLabel(labelled, layout), ['flux-pro', 'a red fox in the snow']);
      // Above the band: the same pixels. In it: white text, and the image at a quarter of its brightness elsewhere.
      assert.ok(layout.top > 200 && layout.top < 256, `band from row ${layout.top}`);
      assert.ok(rows(plain, 0, layout.top).equals(rows(labelled, 0, layout.top)));
      const [before, after] = [rows(plain, layout.top, 256), rows(labelled, layout.top, 256)];
      let ink = 0;
      for (let i = 0; i < after.length; i += 3) {
        if (after[i] === 255 && after[i + 1] === 255 && after[i + 2] === 255) ink++;
        else for (let c = 0; c < 3; c++) assert.equal(after[i + c], before[i + c]! >> 2, `band byte ${i + c}`);
      }
      assert.ok(ink > 100, `${ink} text pixels`);
    });

    it('scales the text with the image and keeps it inside, from 256 to 2048 px and every aspect ratio', async () => {
      const long = { model: 'stable-diffusion-with-a-name-longer-than-any-image-is-wide-'.repeat(4), prompt: 'word '.repeat(30) };
      for (const [width, height] of [
        [256, 256],
        [1024, 1024],
        [1344, 756],
        [756, 1344],
        [2048, 2048],
        [2048, 300],
        [300, 2048],
      ] as const) {
        const layout = layoutLabel(width, height, long)!;
        assert.equal(layout.scale, Math.max(1, Math.round(Math.min(width, height) / 200)), `${width}x${height}`);
        assert.ok(layout.top >= (2 * height) / 3 && layout.top + layout.height === height, `${width}x${height}: band ${layout.top}+${layout.height}`);
        layout.lines.forEach((line, i) => {
          const end = glyphOrigin(layout, i, line.length - 1).x + 5 * layout.scale;
          assert.ok(end <= width - layout.padding, `${width}x${height}: line ${i} ends at ${end}`);
        });
        assert.ok(layout.lines[0]!.startsWith('stable-diffusion') && layout.lines[0]!.endsWith('\u2026'), `${width}x${height}: ${layout.lines[0]}`);
        assert.ok(layout.lines.at(-1)!.endsWith('\u2026'), 'the prompt excerpt says it was cut');
        assert.ok(layout.lines.slice(1).join(' ').length <= 41, 'about 40 characters of the prompt');
      }
      const big = await decodeRgb((await renderImage({ width: 1024, height: 1024, seed: 's1', format: 'png', label })).data);
      assert.deepEqual(readLabel(big, layoutFor(big, label)), ['flux-pro', 'a red fox in the snow']);
      assert.equal(layoutFor(big, label).scale, 5);
    });

    it('tells two models apart on the same prompt and seed', async () => {
      const other = { ...label, model: 'imagen-4' };
      const [a, b] = await Promise.all([label, other].map((l) => renderImage({ width: 512, height: 512, seed: 's1', format: 'png', label: l })));
      assert.ok(!a!.data.equals(b!.data));
      const [pa, pb] = [await decodeRgb(a!.data), await decodeRgb(b!.data)];
      assert.deepEqual([readLabel(pa, layoutFor(pa, label))[0], readLabel(pb, layoutFor(pb, other))[0]], ['flux-pro', 'imagen-4']);
    });

    it('gives the same bytes for the same seed, model and prompt, in PNG and WebP', async () => {
      for (const format of ['png', 'webp'] as const) {
        const [a, b] = await Promise.all([0, 1].map(() => renderImage({ width: 640, height: 360, seed: 's1', format, label })));
        assert.ok(a!.data.equals(b!.data), format);
      }
    });

    it('writes a non-ASCII prompt in the font and leaves images too small for a label unlabelled, without throwing', async () => {
      const accented = { model: 'flux-pro', prompt: 'Crème brûlée 🦊' };
      const picture = await decodeRgb((await renderImage({ width: 512, height: 512, seed: 's1', format: 'png', label: accented })).data);
      assert.deepEqual(readLabel(picture, layoutFor(picture, accented)), ['flux-pro', 'Creme brulee ?']);
      for (const [width, height] of [
        [1, 1],
        [2, 2],
        [16, 16],
        [17, 5],
        [300, 20],
        [20, 300],
        [64, 64],
      ] as const) {
        for (const format of ['png', 'webp'] as const) {
          const [plain, labelled] = await Promise.all([undefined, accented].map((l) => renderImage({ width, height, seed: 's1', format, label: l })));
          const meta = await sharp(labelled!.data).metadata();
          assert.deepEqual([meta.width, meta.height], [width, height]);
          assert.equal(labelled!.data.equals(plain!.data), layoutLabel(width, height, accented) === undefined, `${width}x${height}`);
        }
      }
      assert.equal(layoutLabel(16, 16, accented), undefined);
    });

    it('labels image-to-image outputs too', async () => {
      const input = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#f0f0f0' } })
        .png()
        .toBuffer();
      const picture = await decodeRgb((await renderImageFromInput({ input, width: 512, height: 512, seed: 's1', label })).data);
      assert.deepEqual(readLabel(picture, layoutFor(picture, label)), ['flux-pro', 'a red fox in the snow']);
    });
  });

  describe('video', () => {
    it('overlays the label on every frame, readable from the decoded frames, and nowhere else', async () => {
      const avatar = { model: 'omnihuman', prompt: 'Hello from the simulator, this is a rather long line of speech to cut.' };
      const { width, height } = videoSize('16:9');
      const [plain, labelled] = await Promise.all([undefined, avatar].map((l) => renderVideo({ durationS: 2, width, height, seed: 'v1', audio: true, label: l })));
      for (const seconds of [0, 1.5]) {
        const frame = await videoFrame(labelled!.data, seconds);
        const layout = layoutFor(frame, avatar);
        assert.equal(layout.scale, 2);
        assert.deepEqual(readLabel(frame, layout), ['omnihuman', 'Hello from the simulator, this is a rat\u2026'], `at ${seconds} s`);
        // Above the band, away from the macroblocks it touches, the frame is the unlabelled one's.
        const reference = await videoFrame(plain!.data, seconds);
        const clear = Math.floor(layout.top / 16) * 16 - 16;
        const [a, b] = [rows(frame, 0, clear), rows(reference, 0, clear)];
        let difference = 0;
        for (let i = 0; i < a.length; i++) difference += Math.abs(a[i]! - b[i]!);
        assert.ok(difference / a.length < 2, `mean difference ${difference / a.length} above the band`);
        // The band between the glyphs is dark, whatever the frame behind it.
        let dark = 0;
        for (let x = 0; x < width; x++) dark += isInk(frame, x, height - 1) ? 0 : 1;
        assert.equal(dark, width, 'the bottom row (padding) has no ink');
      }
    });

    it('gives the same bytes for the same seed, model and prompt, and works on tiny frames', async () => {
      const render = (durationS: number, width: number, height: number) => renderVideo({ durationS, width, height, seed: 'v1', label });
      const [a, b] = await Promise.all([render(1, 320, 240), render(1, 320, 240)]);
      assert.ok(a.data.equals(b.data));
      const unlabelled = await renderVideo({ durationS: 1, width: 320, height: 240, seed: 'v1' });
      assert.ok(!a.data.equals(unlabelled.data));
      for (const [width, height] of [
        [2, 2],
        [16, 16],
        [64, 64],
      ] as const)
        await render(0.5, width, height);
    });
  });
});

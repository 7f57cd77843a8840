import assert from 'node:assert/strict';
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { renderAudio } from '../../activities/providers/simulator-media/audio';
import { FfmpegError, probe, runFfmpeg, type ProbeResult } from '../../lib/ffmpeg';
import { renderImage } from '../../activities/providers/simulator-media/image';
import { renderImageFromInput } from '../../activities/providers/simulator-media/image-to-image';
import { renderMesh } from '../../activities/providers/simulator-media/mesh';
import { transcribe } from '../../activities/providers/simulator-media/transcript';
import { upscaleImage } from '../../activities/providers/simulator-media/upscale';
import { renderVideo, videoSize } from '../../activities/providers/simulator-media/video';
import { ProviderError } from '../../activities/providers/types';

const isInvalidInput = (err: unknown) => err instanceof ProviderError && err.code === 'invalid_input' && !err.retryable;

function stream(result: ProbeResult, type: 'audio' | 'video') {
  return result.streams.find((s) => s.codec_type === type);
}

function assertDuration(result: ProbeResult, seconds: number) {
  const actual = Number(result.format.duration);
  assert.ok(Math.abs(actual - seconds) <= 0.1, `container says ${actual} s, expected ${seconds} s`);
}

async function readGlb(data: Buffer) {
  return new NodeIO().readBinary(new Uint8Array(data));
}

describe('simulator media', () => {
  describe('images', () => {
    it('renders a PNG and a WebP of the requested size', async () => {
      for (const format of ['png', 'webp'] as const) {
        const file = await renderImage({ width: 640, height: 360, seed: 's1', format });
        const meta = await sharp(file.data).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], [format, 640, 360]);
        assert.deepEqual([file.mime, file.extension, file.width, file.height], [`image/${format}`, format, 640, 360]);
      }
    });

    it('repeats an image for its seed and changes it for another', async () => {
      const [a, b, c] = await Promise.all(['s1', 's1', 's2'].map((seed) => renderImage({ width: 256, height: 256, seed, format: 'webp' })));
      assert.ok(a!.data.equals(b!.data));
      assert.ok(!a!.data.equals(c!.data));
    });
  });

  describe('image to image', () => {
    const solid = (background: string, width = 400, height = 300) =>
      sharp({ create: { width, height, channels: 3, background } })
        .png()
        .toBuffer();

    it('crops and resizes the input to the output size, tinted by the seed: same input and seed, same bytes', async () => {
      const input = await solid('#d03030');
      const [a, b, c] = await Promise.all(['s1', 's1', 's2'].map((seed) => renderImageFromInput({ input, width: 756, height: 1344, seed })));
      const meta = await sharp(a!.data).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height, a!.mime], ['png', 756, 1344, 'image/png']);
      assert.ok(a!.data.equals(b!.data));
      assert.ok(!a!.data.equals(c!.data), 'the seed still matters');
    });

    it('follows its input: a grey or transparent input works, and another input gives another image', async () => {
      const grey = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
        .greyscale()
        .png()
        .toBuffer();
      const clear = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#00000000' } })
        .png()
        .toBuffer();
      const means = [];
      for (const input of [grey, clear, await solid('#20d040')]) {
        const file = await renderImageFromInput({ input, width: 128, height: 128, seed: 's' });
        means.push((await sharp(file.data).stats()).channels.slice(0, 3).map((ch) => Math.round(ch.mean)));
      }
      assert.equal(new Set(means.map((m) => m.join())).size, 3, JSON.stringify(means));
      assert.ok(means[2]![1]! > means[0]![1]!, 'a green input gives a greener image');
    });

    it('refuses input that is not an image', async () => {
      await assert.rejects(renderImageFromInput({ input: Buffer.from('not an image'), width: 64, height: 64, seed: 's' }), isInvalidInput);
    });
  });

  describe('audio', () => {
    it('writes a 16-bit PCM WAV of exactly the requested length', async () => {
      const file = await renderAudio({ durationMs: 12_500, seed: 'a1', format: 'wav', kind: 'speech' });
      assert.equal(file.data.toString('latin1', 0, 4), 'RIFF');
      assert.equal(file.data.toString('latin1', 8, 12), 'WAVE');
      assert.equal(file.data.readUInt32LE(4), file.data.length - 8, 'the RIFF size covers the file');
      const audio = stream(await probe(file.data), 'audio');
      assert.deepEqual([audio?.codec_name, audio?.channels, audio?.duration], ['pcm_s16le', 1, '12.500000']);
      assert.deepEqual([file.mime, file.extension, file.durationS], ['audio/wav', 'wav', '12.5']);
    });

    it('encodes a 180 s music track as MP3 in a second or two', async () => {
      const started = Date.now();
      const file = await renderAudio({ durationMs: 180_000, seed: 'a1', format: 'mp3', kind: 'music' });
      const elapsed = Date.now() - started;
      const result = await probe(file.data);
      assert.equal(stream(result, 'audio')?.codec_name, 'mp3');
      assertDuration(result, 180);
      assert.deepEqual([file.mime, file.extension, file.durationS], ['audio/mpeg', 'mp3', '180']);
      // About 1.2 s on a small VM; the bound only catches a slow encoder setting (LAME's default takes 20 s).
      assert.ok(elapsed < 5000, `took ${elapsed} ms`);
    });

    it('repeats a sound for its seed and changes it for another', async () => {
      const render = (seed: string, kind: 'speech' | 'music') => renderAudio({ durationMs: 2000, seed, format: 'mp3', kind });
      const [a, b, c, music] = await Promise.all([render('a1', 'speech'), render('a1', 'speech'), render('a2', 'speech'), render('a1', 'music')]);
      assert.ok(a.data.equals(b.data));
      assert.ok(!a.data.equals(c.data));
      assert.ok(!a.data.equals(music.data));
    });
  });

  describe('video', () => {
    it('renders an H.264 MP4 of the requested length and size, index first', async () => {
      const { width, height } = videoSize('16:9');
      const file = await renderVideo({ durationS: 10, width, height, seed: 'v1' });
      const result = await probe(file.data);
      const video = stream(result, 'video');
      assert.deepEqual([video?.codec_name, video?.width, video?.height, video?.pix_fmt], ['h264', 640, 360, 'yuv420p']);
      assert.equal(stream(result, 'audio'), undefined);
      assertDuration(result, 10);
      assert.ok(file.data.indexOf('moov') < file.data.indexOf('mdat'), 'faststart puts the index first');
      assert.deepEqual([file.mime, file.width, file.height, file.durationS], ['video/mp4', 640, 360, '10']);
    });

    it('adds an AAC track of the same length on request', async () => {
      const file = await renderVideo({ durationS: 2.5, width: 360, height: 640, seed: 'v1', audio: true });
      const result = await probe(file.data);
      assert.equal(stream(result, 'audio')?.codec_name, 'aac');
      assert.ok(Math.abs(Number(stream(result, 'audio')?.duration) - 2.5) <= 0.1);
      assertDuration(result, 2.5);
      assert.equal(file.durationS, '2.5');
    });

    it('repeats a clip for its seed and changes it for another', async () => {
      const render = (seed: string) => renderVideo({ durationS: 1, width: 320, height: 240, seed });
      const [a, b, c] = await Promise.all([render('v1'), render('v1'), render('v2')]);
      assert.ok(a.data.equals(b.data));
      assert.ok(!a.data.equals(c.data));
    });

    it('sizes frames from the aspect ratio with even sides', () => {
      assert.deepEqual(videoSize('16:9'), { width: 640, height: 360 });
      assert.deepEqual(videoSize('9:16'), { width: 360, height: 640 });
      assert.deepEqual(videoSize('1:1'), { width: 480, height: 480 });
      assert.deepEqual(videoSize('4:3'), { width: 640, height: 480 });
      assert.deepEqual(videoSize('3:4'), { width: 480, height: 640 });
      assert.deepEqual(videoSize('21:9'), { width: 840, height: 360 });
      for (const ratio of ['3:2', '2:3', '5:4', '7:5', '1:3', '37:20', '100:1']) {
        const { width, height } = videoSize(ratio);
        assert.ok(width % 2 === 0 && height % 2 === 0, `${ratio} gives ${width}x${height}`);
        assert.ok(Math.abs(width * height - 230_400) < 20_000, `${ratio} gives ${width}x${height}`);
      }
      assert.deepEqual(videoSize('3:2'), { width: 588, height: 392 });
      for (const bad of ['16x9', '0:1', '1:0', '101:1', '']) assert.throws(() => videoSize(bad), RangeError);
    });
  });

  describe('meshes', () => {
    it('writes a GLB with positions, normals, UVs, indices and a texture of the requested size', async () => {
      const file = await renderMesh({ seed: 'm1', complexity: 'low', textureSize: 1024, rigged: false });
      assert.deepEqual([file.mime, file.extension], ['model/gltf-binary', 'glb']);
      assert.equal(file.data.toString('latin1', 0, 4), 'glTF');
      const root = (await readGlb(file.data)).getRoot();
      const primitive = root.listMeshes()[0]!.listPrimitives()[0]!;
      assert.deepEqual(primitive.listSemantics().sort(), ['NORMAL', 'POSITION', 'TEXCOORD_0']);
      assert.ok(primitive.getIndices()!.getCount() > 0);
      const texture = primitive.getMaterial()!.getBaseColorTexture()!;
      const meta = await sharp(texture.getImage()!).metadata();
      assert.deepEqual([texture.getMimeType(), meta.width, meta.height], ['image/png', 1024, 1024]);
      assert.equal(root.listSkins().length, 0);
    });

    it('grows with complexity and rigs a skin of joints on request', async () => {
      const low = await readGlb((await renderMesh({ seed: 'm1', complexity: 'low', textureSize: 1024, rigged: false })).data);
      const file = await renderMesh({ seed: 'm1', complexity: 'high', textureSize: 4096, rigged: true });
      const root = (await readGlb(file.data)).getRoot();
      const primitive = root.listMeshes()[0]!.listPrimitives()[0]!;
      const lowCount = low.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!.getCount();
      assert.ok(primitive.getAttribute('POSITION')!.getCount() > 10 * lowCount);
      const meta = await sharp(primitive.getMaterial()!.getBaseColorTexture()!.getImage()!).metadata();
      assert.deepEqual([meta.width, meta.height], [4096, 4096]);
      const [skin] = root.listSkins();
      assert.equal(skin!.listJoints().length, 4);
      assert.equal(skin!.getInverseBindMatrices()!.getCount(), 4);
      assert.equal(
        root
          .listNodes()
          .find((node) => node.getMesh())!
          .getSkin(),
        skin,
      );
      const weights = primitive.getAttribute('WEIGHTS_0')!;
      assert.ok(primitive.getAttribute('JOINTS_0'));
      for (let i = 0; i < weights.getCount(); i += 97) {
        const sum = weights.getElement(i, []).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) < 1e-6, `weights of vertex ${i} sum to ${sum}`);
      }
    });

    it('repeats a mesh for its seed and changes it for another', async () => {
      const render = (seed: string) => renderMesh({ seed, complexity: 'medium', textureSize: 1024, rigged: true });
      const [a, b, c] = await Promise.all([render('m1'), render('m1'), render('m2')]);
      assert.ok(a.data.equals(b.data));
      assert.ok(!a.data.equals(c.data));
    });
  });

  describe('upscaling', () => {
    it('scales an image to exactly two or four times its width and height', async () => {
      const input = (await renderImage({ width: 300, height: 200, seed: 'u1', format: 'webp' })).data;
      for (const scaleFactor of [2, 4] as const) {
        const file = await upscaleImage({ input, scaleFactor, faceEnhance: scaleFactor === 4 });
        const meta = await sharp(file.data).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['png', 300 * scaleFactor, 200 * scaleFactor]);
        assert.deepEqual([file.mime, file.width, file.height], ['image/png', 300 * scaleFactor, 200 * scaleFactor]);
      }
    });

    it('refuses input that is not an image, or an output over 64 megapixels', async () => {
      await assert.rejects(upscaleImage({ input: Buffer.from('not an image'), scaleFactor: 2, faceEnhance: false }), isInvalidInput);
      const large = await sharp({ create: { width: 2100, height: 2000, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      await assert.rejects(upscaleImage({ input: large, scaleFactor: 4, faceEnhance: false }), isInvalidInput);
    });
  });

  describe('transcripts', () => {
    it('transcribes audio with text that grows with its length', async () => {
      const short = await renderAudio({ durationMs: 12_500, seed: 't1', format: 'wav', kind: 'speech' });
      const long = await renderAudio({ durationMs: 40_000, seed: 't1', format: 'mp3', kind: 'speech' });
      const a = await transcribe({ audio: short.data, seed: 't1' });
      assert.equal(a.durationS, '12.5');
      assert.match(a.text, /^\[simulated transcript, 12\.5 s\] [A-Z]/);
      assert.deepEqual(await transcribe({ audio: short.data, seed: 't1' }), a);
      assert.notEqual((await transcribe({ audio: short.data, seed: 't2' })).text, a.text);
      const b = await transcribe({ audio: long.data, seed: 't1' });
      assert.ok(Math.abs(Number(b.durationS) - 40) <= 0.1);
      assert.ok(b.text.split(' ').length > 2.5 * a.text.split(' ').length);
    });

    it('refuses input that is not audio', async () => {
      await assert.rejects(transcribe({ audio: Buffer.from('garbage bytes, not audio'), seed: 't1' }), isInvalidInput);
      const image = (await renderImage({ width: 64, height: 64, seed: 't1', format: 'png' })).data;
      await assert.rejects(transcribe({ audio: image, seed: 't1' }), isInvalidInput);
    });
  });

  describe('ffmpeg', () => {
    it('reports a failed run with its exit code and the end of its stderr', async () => {
      await assert.rejects(runFfmpeg(['-i', '/nonexistent/input.wav', '-f', 'null', '-']), (err: unknown) => {
        return err instanceof FfmpegError && err.exitCode !== null && err.stderrTail.includes('No such file');
      });
    });
  });
});

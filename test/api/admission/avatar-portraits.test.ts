import assert from 'node:assert/strict';
import sharp from 'sharp';
import { renderVideo } from '../../../activities/providers/simulator-media';
import { firstFrameInput, stockPortraitInput } from '../../../api/admission/avatar-portraits';
import { ApiError } from '../../../api/errors';
import type { StoredInput } from '../../../api/admission/inputs';
import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { STOCK_AVATARS, STOCK_PORTRAIT_SIZE_PX, stockPortraitSvg } from '../../../domain/avatars';
import { stack } from '../../helpers/stack';

// The portraits the API gives a portrait avatar model (api/admission/avatar-portraits.ts), stored in the
// stack's real storage: every stock avatar's rendered PNG, and a lipsync video's first frame.

const principal = { organizationId: 'org_avatar_portraits' } as KeyPrincipal;
const videoInput = (data: Buffer): StoredInput => ({ storageKey: 'inputs/org_avatar_portraits/inp_x/video.mp4', contentType: 'video/mp4', data });

describe('avatar portraits (api/admission/avatar-portraits.ts)', () => {
  it('renders and stores every stock avatar as a distinct 512x512 PNG, the same bytes each time', async () => {
    const { storage } = stack().apiDeps;
    const seen = new Set<string>();
    for (const avatar of STOCK_AVATARS) {
      const input = await stockPortraitInput(storage, avatar);
      assert.deepEqual(input, { storageKey: `avatars/stock/${avatar.id}.png`, contentType: 'image/png' });
      const png = (await storage.read(input.storageKey))!;
      const meta = await sharp(png).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', STOCK_PORTRAIT_SIZE_PX, STOCK_PORTRAIT_SIZE_PX]);
      seen.add(png.toString('base64'));
      const rendered = await sharp(Buffer.from(stockPortraitSvg(avatar)))
        .png()
        .toBuffer();
      assert.ok(rendered.equals(png), `${avatar.id}: the stored portrait is its SVG's rendering, byte for byte`);
    }
    assert.equal(seen.size, STOCK_AVATARS.length, 'each avatar has a portrait of its own');
  });

  it("stores a video's first frame as a PNG the video's size", async () => {
    const video = await renderVideo({ durationS: 2, width: 320, height: 180, seed: 'first-frame' });
    const input = await firstFrameInput(stack().apiDeps.storage, principal, videoInput(video.data));
    assert.equal(input.contentType, 'image/png');
    assert.match(input.storageKey, /^inputs\/org_avatar_portraits\/inp_[0-9A-Za-z]+\/image\.png$/);
    const meta = await sharp((await stack().apiDeps.storage.read(input.storageKey))!).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 320, 180]);
  });

  it('refuses a "video" with no decodable frame: 400 validation_failed naming video_url', async () => {
    await assert.rejects(firstFrameInput(stack().apiDeps.storage, principal, videoInput(Buffer.from('not a video at all'))), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.deepEqual([err.code, err.param], ['validation_failed', 'video_url']);
      assert.match(err.message, /first frame/);
      return true;
    });
  });
});

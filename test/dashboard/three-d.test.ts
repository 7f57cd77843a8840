import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { closeDashboard, go, openDashboard, screenshot, signIn, useDashboardBrowser } from './harness';

// A 3D output turned in the page (dashboard/src/components/model-viewer.tsx): the generation's
// glTF binary drawn with WebGL, and turned by the keyboard.

interface Canvas {
  width: number;
  height: number;
  getContext(kind: 'webgl'): {
    readPixels(x: number, y: number, w: number, h: number, format: number, type: number, out: Uint8Array): void;
    RGBA: number;
    UNSIGNED_BYTE: number;
  } | null;
}

/** A digest of what the canvas shows: the distinct colours of a coarse grid of pixels, and how many differ from the corner (background). */
const readCanvas = () => {
  const canvas = (globalThis as unknown as { document: { querySelector(s: string): Canvas | null } }).document.querySelector('[data-testid=model-viewer] canvas')!;
  const gl = canvas.getContext('webgl')!;
  const pixels = new Uint8Array(canvas.width * canvas.height * 4);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const background = pixels.slice(0, 3).join(',');
  const samples: string[] = [];
  let covered = 0;
  for (let y = 0; y < canvas.height; y += 8) {
    for (let x = 0; x < canvas.width; x += 8) {
      const i = (y * canvas.width + x) * 4;
      const colour = `${pixels[i]},${pixels[i + 1]},${pixels[i + 2]}`;
      samples.push(colour);
      if (colour !== background) covered++;
    }
  }
  return { covered, total: samples.length, digest: samples.join(';') };
};

describe('dashboard: 3D preview', function () {
  this.timeout(120_000);
  const browser = useDashboardBrowser();

  it('draws a 3D generation’s model in the page, textured, and turns it with the arrow keys', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/three-d', { key: org.liveKey, body: { model: 'tripo-v2.5-text', prompt: 'a teapot', texture_size: '1024', mesh_complexity: 'low' } });
    assert.equal(created.status, 202);
    await waitForGeneration(created.body.id, org.liveKey, ['succeeded'], 60_000);

    const session = await openDashboard(browser());
    await signIn(session, org.liveKey);
    await go(session, `/generations/${created.body.id}`);
    await session.page.locator('[data-testid=model-viewer][data-state=ready]').waitFor({ timeout: 30_000 });
    const before = await session.page.evaluate(readCanvas);
    assert.ok(before.covered > before.total * 0.1, `the model covers part of the view: ${before.covered}/${before.total} samples`);
    assert.ok(before.covered < before.total, 'and the background shows around it');
    assert.ok(new Set(before.digest.split(';')).size > 20, 'shaded and textured, not one flat colour');
    await screenshot(session, 'three-d-preview');

    await session.page.locator('[data-testid=model-viewer] canvas').focus();
    await session.page.keyboard.press('ArrowRight');
    await session.page.keyboard.press('ArrowRight');
    const after = await session.page.evaluate(readCanvas);
    assert.notEqual(after.digest, before.digest, 'the arrow keys turn it');
    assert.ok(await session.page.getByRole('link', { name: 'Download 3D model (.glb)' }).isVisible());
    await closeDashboard(session);
    await assertLedgerBalanced(org.id);
  });
});

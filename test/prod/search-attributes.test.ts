import assert from 'node:assert/strict';
import type { TestOrganization } from '../helpers/http';
import { waitForWorkflowList, type ListedWorkflow } from '../helpers/workflow-search';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, waitForProdGeneration } from './helpers';
import { prodStack } from './fixture';

// Finding a job in the Temporal UI on the production topology (docs/operations.md): the Temporal
// server on Postgres, whose namespace got the search attributes through the operator service
// before any worker or API started (`npm run stack:prod`). Jobs made through the proxy in front of
// both APIs, by both workers, are found with the CLI's `workflow list --query`.

const ids = (found: ListedWorkflow[]) => found.map((w) => w.workflowId).sort();

describe('search attributes on the production topology', function () {
  this.timeout(120_000);
  let a: TestOrganization;
  let b: TestOrganization;
  const made = new Map<string, { videos: string[]; images: string[] }>();

  before(async () => {
    [a, b] = await Promise.all([createProdOrganization(), createProdOrganization()]);
    for (const org of [a, b]) {
      const videos = await Promise.all(
        ['surf at dawn', 'surf at dusk'].map(async (prompt) => {
          const res = await prodCall('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt, duration_s: 6 } });
          assert.equal(res.status, 202, JSON.stringify(res.body));
          const gen = await waitForProdGeneration(res.body.id, org.liveKey);
          assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
          return gen.id as string;
        }),
      );
      const image = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a lighthouse' } });
      assert.equal(image.status, 200, JSON.stringify(image.body));
      made.set(org.id, { videos, images: [image.body.id] });
    }
  });
  after(async () => {
    await assertProdLedgerBalanced(a.id);
    await assertProdLedgerBalanced(b.id);
  });

  it("OrganizationId='…' AND Modality='video' finds exactly that organization's videos, at their terminal status", async () => {
    for (const org of [a, b]) {
      const expected = [...made.get(org.id)!.videos].sort();
      const found = await waitForWorkflowList(
        prodStack().temporalAddress,
        `OrganizationId='${org.id}' AND Modality='video'`,
        (f) => JSON.stringify(ids(f)) === JSON.stringify(expected) && f.every((w) => w.attributes.GenerationStatus === 'succeeded'),
      );
      for (const workflow of found) {
        assert.equal(workflow.attributes.Model, 'hailuo-02');
        assert.equal(workflow.attributes.Environment, 'live');
        assert.equal(workflow.memo.endpoint, '/v1/videos');
        assert.ok(typeof workflow.attributes.Provider === 'string', JSON.stringify(workflow.attributes));
      }
    }
    const images = await waitForWorkflowList(prodStack().temporalAddress, `OrganizationId='${a.id}' AND Modality='image'`, (f) => f.length === 1);
    assert.deepEqual(ids(images), made.get(a.id)!.images);
  });
});

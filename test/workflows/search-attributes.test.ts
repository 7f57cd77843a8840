import assert from 'node:assert/strict';
import { PROMPT_EXCERPT_MAX_CHARS } from '../../domain/workflow-memo';
import { waitForComparison } from '../helpers/comparisons';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';
import { waitForWorkflowList, type ListedWorkflow } from '../helpers/workflow-search';

// Finding a job in the Temporal UI (docs/operations.md): every job made through the HTTP API is
// found by organization, environment, modality, model, comparison and webhook with the CLI's
// `workflow list --query`, carries its status and provider as they ended, and a memo with a short
// excerpt of its prompt, never the whole prompt or a token in a URL.

/** Longer than an excerpt, with a URL whose query carries a token. */
const SECRET = 'tok_do_not_show_me';
const LONG_PROMPT = `A slow pan across a harbour at dawn, fishing boats returning, gulls overhead, mist on the water, see https://media.example/ref.png?token=${SECRET} for the palette`;

const ids = (found: ListedWorkflow[]) => found.map((w) => w.workflowId).sort();
const sameIds = (expected: string[]) => (found: ListedWorkflow[]) => JSON.stringify(ids(found)) === JSON.stringify([...expected].sort());
const allAt = (status: string) => (found: ListedWorkflow[]) => found.every((w) => w.attributes.GenerationStatus === status);

describe('search attributes and memo: finding a job with `temporal workflow list --query`', function () {
  this.timeout(120_000);
  let a: TestOrganization;
  let b: TestOrganization;
  const address = () => stack().config.temporalAddress!;
  const videosOf = new Map<string, any[]>();
  const imagesOf = new Map<string, any[]>();

  before(async () => {
    [a, b] = await Promise.all([createOrganization(), createOrganization()]);
    for (const org of [a, b]) {
      // Two videos (async) and an image (sync) each, all on simulator-backed models.
      const videos = await Promise.all(
        [LONG_PROMPT, 'surf at dusk'].map(async (prompt) => {
          const res = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt, duration_s: 6 } });
          assert.equal(res.status, 202, JSON.stringify(res.body));
          return waitForGeneration(res.body.id, org.liveKey);
        }),
      );
      const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a lighthouse' } });
      assert.equal(image.status, 200, JSON.stringify(image.body));
      videosOf.set(org.id, videos);
      imagesOf.set(org.id, [image.body]);
    }
  });
  after(async () => {
    await assertLedgerBalanced(a.id);
    await assertLedgerBalanced(b.id);
  });

  it("OrganizationId='…' AND Modality='video' lists exactly that organization's videos, each at its terminal status and provider", async () => {
    for (const org of [a, b]) {
      const videos = videosOf.get(org.id)!;
      assert.deepEqual(
        videos.map((v) => v.status),
        ['succeeded', 'succeeded'],
      );
      const expected = videos.map((v) => v.id as string);
      const found = await waitForWorkflowList(address(), `OrganizationId='${org.id}' AND Modality='video'`, (f) => sameIds(expected)(f) && allAt('succeeded')(f));
      for (const workflow of found) {
        const video = videos.find((v) => v.id === workflow.workflowId)!;
        assert.equal(workflow.type, 'generationWorkflow');
        assert.deepEqual(workflow.attributes, {
          ...workflow.attributes,
          OrganizationId: org.id,
          Environment: 'live',
          Modality: 'video',
          Model: 'hailuo-02',
          GenerationStatus: 'succeeded',
          Provider: video.provider,
        });
        assert.ok(typeof video.provider === 'string' && video.provider.length > 0, JSON.stringify(video));
      }
    }
    // The other modality of the same organization is found apart.
    const image = imagesOf.get(b.id)![0];
    const images = await waitForWorkflowList(address(), `OrganizationId='${b.id}' AND Modality='image'`, (f) => sameIds([image.id])(f) && allAt('succeeded')(f));
    assert.equal(images[0]!.attributes.Model, 'flux-schnell');
  });

  it('the memo holds the model, modality, endpoint and a short excerpt of the prompt, never the whole prompt or a URL token', async () => {
    const video = videosOf.get(a.id)!.find((v) => v.prompt === LONG_PROMPT);
    assert.ok(video, 'the long prompt was made');
    const [found] = await waitForWorkflowList(address(), `WorkflowId='${video.id}'`, (f) => f.length === 1);
    const memo = found!.memo;
    assert.equal(memo.model, 'hailuo-02');
    assert.equal(memo.modality, 'video');
    assert.equal(memo.endpoint, '/v1/videos');
    const excerpt = memo.prompt_excerpt as string;
    assert.ok([...excerpt].length <= PROMPT_EXCERPT_MAX_CHARS, excerpt);
    assert.ok(excerpt.startsWith('A slow pan across a harbour at dawn'), excerpt);
    const everything = JSON.stringify(found);
    assert.ok(!everything.includes(LONG_PROMPT), 'the whole prompt is not in the memo or the attributes');
    assert.ok(!everything.includes(SECRET), 'no URL token');
    const description = await stack().temporal.workflow.getHandle(video.id).describe();
    assert.equal(await description.staticSummary(), `video on hailuo-02 for ${a.id} (live)`);
  });

  it("a failed job ends GenerationStatus='failed', and a sandbox job is found by Environment='test'", async () => {
    const failed = await call('POST', '/v1/images', { key: a.liveKey, body: { model: 'flux-dev', prompt: 'break #fail' } });
    assert.equal(failed.body.status, 'failed', JSON.stringify(failed.body));
    const sandbox = await call('POST', '/v1/images', { key: a.testKey, body: { model: 'flux-schnell', prompt: 'a sandbox lighthouse' } });
    assert.equal(sandbox.status, 200, JSON.stringify(sandbox.body));
    await waitForWorkflowList(address(), `OrganizationId='${a.id}' AND GenerationStatus='failed'`, sameIds([failed.body.id]));
    const [test] = await waitForWorkflowList(address(), `OrganizationId='${a.id}' AND Environment='test'`, (f) => sameIds([sandbox.body.id])(f) && allAt('succeeded')(f));
    assert.equal(test!.attributes.Provider, 'simulator');
  });

  it('a comparison and each of its children carry its ComparisonId; the comparison ends at its verdict', async () => {
    const res = await call('POST', '/v1/comparisons', { key: b.liveKey, body: { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'flux-dev'] } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const comparison = await waitForComparison(res.body.id, b.liveKey);
    assert.equal(comparison.status, 'succeeded');
    const childIds: string[] = comparison.generations.map((g: { id: string }) => g.id);
    const found = await waitForWorkflowList(address(), `ComparisonId='${comparison.id}'`, (f) => sameIds([comparison.id, ...childIds])(f) && allAt('succeeded')(f));
    const parent = found.find((w) => w.workflowId === comparison.id)!;
    assert.equal(parent.type, 'comparisonWorkflow');
    assert.equal(parent.attributes.OrganizationId, b.id);
    assert.equal(parent.attributes.Modality, 'image');
    assert.equal(parent.memo.models, 'flux-schnell,flux-dev');
    for (const child of found.filter((w) => w.workflowId !== comparison.id)) {
      assert.equal(child.type, 'generationWorkflow');
      assert.equal(child.attributes.OrganizationId, b.id);
      assert.ok(['flux-schnell', 'flux-dev'].includes(child.attributes.Model as string), JSON.stringify(child.attributes));
      assert.equal(child.memo.comparison_id, comparison.id);
    }
  });

  it('a webhook delivery carries its WebhookId, organization and environment', async () => {
    const server = await startHttpsServer(stack().receiverCertificate, (_req, res) => res.writeHead(200).end());
    try {
      const hook = await call('POST', '/v1/webhooks', { key: b.testKey, body: { url: `https://127.0.0.1:${server.port}/hook`, events: ['*'] } });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const image = await call('POST', '/v1/images', { key: b.testKey, body: { model: 'flux-schnell', prompt: 'a delivered lighthouse' } });
      assert.equal(image.status, 200, JSON.stringify(image.body));
      const [delivery] = await waitForWorkflowList(address(), `WebhookId='${hook.body.id}'`, (f) => f.length >= 1);
      assert.equal(delivery!.type, 'webhookDeliveryWorkflow');
      assert.equal(delivery!.attributes.OrganizationId, b.id);
      assert.equal(delivery!.attributes.Environment, 'test');
      assert.equal(delivery!.memo.webhook_id, hook.body.id);
      assert.match(delivery!.memo.event_type as string, /^generation\./);
    } finally {
      await server.close();
    }
  });
});

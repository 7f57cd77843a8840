import assert from 'node:assert/strict';
import { ROUTES, type RouteName, type RouteSpec } from '../../api/route-table';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// Walks every id-bearing route of the table and tries it across organizations and environments:
// another tenant's id must look exactly like an id that does not exist (404), never 403.

type ResourceFactory = (owner: TestOrganization, environment: 'live' | 'test') => Promise<string>;

const keyOf = (org: TestOrganization, environment: 'live' | 'test') => (environment === 'live' ? org.liveKey : org.testKey);

const generation: ResourceFactory = async (org, environment) =>
  (await call('POST', '/v1/images', { key: keyOf(org, environment), body: { model: 'flux-schnell', prompt: 'mine' } })).body.id;
// A job that stays running until it is cancelled, so that its owner's cancel answers 200.
const runningVideo: ResourceFactory = async (org, environment) =>
  (await call('POST', '/v1/videos', { key: keyOf(org, environment), body: { model: 'hailuo-02', prompt: 'long #slow:600000' } })).body.id;
const comparison: ResourceFactory = async (org, environment) =>
  (await call('POST', '/v1/comparisons', { key: keyOf(org, environment), body: { prompt: 'mine', models: ['flux-schnell', 'imagen-4-fast'] } })).body.id;
const runningComparison: ResourceFactory = async (org, environment) =>
  (await call('POST', '/v1/comparisons', { key: keyOf(org, environment), body: { prompt: 'long #slow:600000', models: ['hailuo-02', 'luma-ray-2-flash'] } })).body.id;
const apiKey: ResourceFactory = async (org, environment) => (await call('POST', '/v1/api-keys', { key: keyOf(org, environment), body: { name: 'mine' } })).body.id;

const user: ResourceFactory = async (org) =>
  (await call('POST', '/v1/users', { key: org.liveKey, body: { email: `${Math.random().toString(36).slice(2)}@example.com`, role: 'developer' } })).body.id;

// Webhook deliveries need a receiver that answers: one for the whole file.
let receiverUrl = '';
const webhook: ResourceFactory = async (org, environment) =>
  (await call('POST', '/v1/webhooks', { key: keyOf(org, environment), body: { url: receiverUrl, events: ['generation.completed'] } })).body.id;
/** A finished (succeeded) delivery, so that its owner may replay it. */
const delivery: ResourceFactory = async (org, environment) => {
  const key = keyOf(org, environment);
  const hook = await webhook(org, environment);
  await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: 'announce me' } });
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/webhooks/${hook}/deliveries`, { key });
      return res.body.data?.[0]?.status === 'succeeded' ? (res.body.data[0].id as string) : undefined;
    },
    20_000,
    'a delivery',
  );
};

/** A bulk recovery of a fresh webhook (it replays nothing; its id is what matters). */
const recovery: ResourceFactory = async (org, environment) => {
  const key = keyOf(org, environment);
  const hook = await webhook(org, environment);
  return (await call('POST', `/v1/webhooks/${hook}/recover`, { key, body: { since: new Date(Date.now() - 60_000).toISOString() } })).body.id;
};

/** An event of the organization's environment: a generation's, read back from the feed. */
const event: ResourceFactory = async (org, environment) => {
  const key = keyOf(org, environment);
  const created = await call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt: 'an event of mine' } });
  return waitFor(
    async () => {
      const res = await call('GET', '/v1/events?limit=100', { key });
      return (res.body.data as { id: string; data: { generation_id?: string } }[] | undefined)?.find((e) => e.data.generation_id === created.body.id)?.id;
    },
    20_000,
    "the generation's event",
  );
};

/** Every id-bearing API-key route must name how to make the resource it addresses. */
const FACTORIES: Partial<Record<RouteName, ResourceFactory>> = {
  getGeneration: generation,
  cancelGeneration: runningVideo,
  deleteGenerationOutputs: generation,
  getComparison: comparison,
  getEvent: event,
  getWebhook: webhook,
  updateWebhook: webhook,
  deleteWebhook: webhook,
  rotateWebhookSecret: webhook,
  listWebhookDeliveries: webhook,
  getWebhookDelivery: delivery,
  replayWebhookDelivery: delivery,
  recoverWebhook: webhook,
  getWebhookRecovery: recovery,
  cancelComparison: runningComparison,
  updateApiKey: apiKey,
  revokeApiKey: apiKey,
  updateUser: user,
  deactivateUser: user,
};

/** Users belong to the organization, not to an environment: only other organizations are strangers. */
const ORGANIZATION_WIDE = new Set<RouteName>(['updateUser', 'deactivateUser']);

const BODIES: Partial<Record<RouteName, unknown>> = {
  updateApiKey: { name: 'stolen' },
  updateUser: { name: 'stolen' },
  updateWebhook: { status: 'enabled' },
  recoverWebhook: { since: new Date(Date.now() - 60_000).toISOString() },
};

const idRoutes = (Object.entries(ROUTES) as [RouteName, RouteSpec][]).filter(
  ([, spec]) => spec.access.kind === 'api_key' && typeof spec.path === 'string' && spec.path.includes(':id'),
);

describe('tenant isolation', function () {
  this.timeout(60_000);
  let receiver: { close(): Promise<void> } | undefined;
  before(async () => {
    const server = await startHttpsServer(stack().receiverCertificate, (_req, res) => void res.writeHead(204).end());
    receiverUrl = `https://127.0.0.1:${server.port}/hook`;
    receiver = server;
  });
  after(async () => receiver?.close());

  it('has a resource factory for every id-bearing route', () => {
    const missing = idRoutes.filter(([name]) => !FACTORIES[name]).map(([name]) => name);
    assert.deepEqual(missing, [], 'add a factory to test/api/isolation.test.ts');
  });

  for (const [name, spec] of idRoutes) {
    it(`${spec.method} ${String(spec.path)} answers 404 to another organization and to the other environment`, async () => {
      const owner = await createOrganization();
      const stranger = await createOrganization();
      const factory = FACTORIES[name]!;
      const organizationWide = ORGANIZATION_WIDE.has(name);
      for (const environment of organizationWide ? (['live'] as const) : (['live', 'test'] as const)) {
        const id = await factory(owner, environment);
        const otherEnvironment = environment === 'live' ? 'test' : 'live';
        const path = String(spec.path).replace(':id', id);
        const strangers = organizationWide ? [stranger.liveKey] : [keyOf(stranger, environment), keyOf(owner, otherEnvironment)];
        for (const key of strangers) {
          const res = await call(spec.method, path, { key, body: BODIES[name] });
          assert.equal(res.status, 404, `${spec.method} ${path} with ${key.slice(0, 8)}`);
          assert.equal(res.body.error.code, 'resource_not_found');
        }
        // The owner, in the same environment, still reaches it: the 404s above are isolation.
        const own = await call(spec.method, path, { key: keyOf(owner, environment), body: BODIES[name] });
        assert.ok(own.status >= 200 && own.status < 300, `${spec.method} ${path} by its owner: ${own.status}`);
      }
      // Nothing another tenant tried moved money, in either organization.
      await assertLedgerBalanced(owner.id);
      await assertLedgerBalanced(stranger.id);
    });
  }
});

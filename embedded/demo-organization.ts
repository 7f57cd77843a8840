import { writeFile } from 'node:fs/promises';
import { createKnex } from '../db/knex';
import { readJson } from './local-secrets';

// The demo organization a local stack prints keys for, made once through the admin API (the
// production path) and remembered in the data folder.

export interface DemoOrganization {
  organizationId: string;
  liveKey: string;
  testKey: string;
}

export async function ensureDemoOrganization(opts: { databaseUrl: string; apiUrl: string; adminToken: string; file: string }): Promise<DemoOrganization> {
  const knex = createKnex(opts.databaseUrl);
  try {
    const saved = await readJson<DemoOrganization>(opts.file);
    if (saved && (await knex('organizations').where({ id: saved.organizationId }).first())) return saved;
  } finally {
    await knex.destroy();
  }
  const response = await fetch(`${opts.apiUrl}/admin/v1/organizations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${opts.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Demo', plan: 'pro', credits: 100_000 }),
  });
  if (response.status !== 201) throw new Error(`creating the demo organization failed: ${await response.text()}`);
  const created = (await response.json()) as { id: string; api_keys: { environment: string; secret: string }[] };
  const secretFor = (env: string) => created.api_keys.find((k) => k.environment === env)?.secret ?? '';
  const demo = { organizationId: created.id, liveKey: secretFor('live'), testKey: secretFor('test') };
  // Only this local demo's keys are kept in plaintext, so that every start can print them.
  await writeFile(opts.file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

/** What `npm start` and `npm run stack:prod` print about the demo organization, and a first request. */
export function demoOrganizationLines(apiUrl: string, adminToken: string, demo: DemoOrganization): string[] {
  return [
    `ADMIN_TOKEN    ${adminToken}`,
    `Demo org       ${demo.organizationId} (Pro plan)`,
    `Live key       ${demo.liveKey}`,
    `Test key       ${demo.testKey}`,
    '',
    'Try it:',
    `  curl -s ${apiUrl}/v1/images -H "Authorization: Bearer ${demo.testKey}" \\`,
    `       -H "Content-Type: application/json" -d '{"model":"flux-schnell","prompt":"a lighthouse at dawn"}'`,
  ];
}

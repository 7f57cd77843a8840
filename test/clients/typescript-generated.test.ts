import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TYPESCRIPT_GENERATED_FILE, generatedTypeScript } from '../../clients/typescript-generator';

// The TypeScript client's generated types must be what openapi-typescript makes of the current
// openapi.json: a change to the API that was not followed by `npm run clients:generate` fails here.

describe('the TypeScript client’s generated code', () => {
  it('is what `npm run clients:generate` produces from the current openapi.json', async () => {
    const committed = await readFile(TYPESCRIPT_GENERATED_FILE, 'utf8');
    assert.ok(committed === (await generatedTypeScript()), 'clients/typescript/src/generated/openapi.ts is stale: run `npm run clients:generate` and commit the result');
  });
});

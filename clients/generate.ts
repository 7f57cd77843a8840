import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PYTHON_GENERATED_DIR, regeneratePythonClient } from './python-generator';
import { TYPESCRIPT_GENERATED_FILE, generatedTypeScript } from './typescript-generator';

// `npm run clients:generate`: regenerates every client's generated code from openapi.json (run
// `npm run openapi` first when the API changed). One command for all clients, so none is left stale.

async function main(): Promise<void> {
  await mkdir(path.dirname(TYPESCRIPT_GENERATED_FILE), { recursive: true });
  await writeFile(TYPESCRIPT_GENERATED_FILE, await generatedTypeScript());
  console.log(`wrote ${path.relative(process.cwd(), TYPESCRIPT_GENERATED_FILE)}`);
  await regeneratePythonClient((line) => console.log(line));
  console.log(`wrote ${path.relative(process.cwd(), PYTHON_GENERATED_DIR)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocumentText } from './build-document';

// `npm run openapi`: writes the document GET /openapi.json serves to openapi.json at the
// repository's root, where clients are generated from and reviewers see the contract change in a
// diff. test/api/openapi.test.ts fails when the committed file is not what the code builds.

export const OPENAPI_JSON_PATH = path.join(__dirname, '..', '..', 'openapi.json');

if (require.main === module) {
  writeFileSync(OPENAPI_JSON_PATH, openApiDocumentText());
  process.stdout.write(`wrote ${path.relative(process.cwd(), OPENAPI_JSON_PATH)}\n`);
}

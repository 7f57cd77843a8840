import path from 'node:path';
import { PYTHON_GENERATED_DIR, regeneratePythonClient } from './python-generator';

// `npm run clients:generate:python`: regenerates the Python client's generated code from
// openapi.json (run `npm run openapi` first when the API changed).

regeneratePythonClient((line) => console.log(line)).then(
  () => console.log(`wrote ${path.relative(process.cwd(), PYTHON_GENERATED_DIR)}`),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

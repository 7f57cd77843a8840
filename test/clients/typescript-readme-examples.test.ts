import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { codeBlocks } from '../docs/markdown-examples';

// The TypeScript examples of README.md and clients/typescript/README.md are not run (they need a
// receiver, a key, minutes of waiting), but they must compile against the client as it is: a
// renamed method or option fails here instead of in a reader's editor.

const ROOT = path.resolve(__dirname, '../..');
const CLIENT_DIR = path.join(ROOT, 'clients/typescript');
const DOCUMENTS = ['README.md', 'clients/typescript/README.md'];
/** Declared for a block that uses `client` without making one (the README's later examples). */
const CLIENT_PREAMBLE =
  "import { createClient as __createClient } from './src/index.js';\nconst client = __createClient({ apiKey: 'sk_test_x', baseUrl: 'http://localhost:8080' });\n";

function examples(): { name: string; source: string }[] {
  return DOCUMENTS.flatMap((document) =>
    codeBlocks(readFileSync(path.join(ROOT, document), 'utf8'))
      .filter((block) => block.lang === 'ts')
      .map((block) => {
        const code = block.lines.join('\n').replaceAll("'@generation-service/client'", "'./src/index.js'");
        const lines = code.split('\n');
        const imports = lines.filter((l) => l.startsWith('import '));
        const body = lines.filter((l) => !l.startsWith('import '));
        const preamble = /\bconst client\b/.test(code) ? '' : CLIENT_PREAMBLE;
        return { name: `${document}:${block.line}`, source: [...imports, preamble, ...body, 'export {};'].join('\n') };
      }),
  );
}

function compileErrors(files: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => files.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    return text !== undefined ? ts.createSourceFile(file, text, language) : getSourceFile.call(host, file, language, ...rest);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the TypeScript client’s documented examples', function () {
  this.timeout(60_000);

  it('compile against the client (README.md and clients/typescript/README.md)', () => {
    const found = examples();
    assert.ok(found.length >= 4, `only ${found.length} TypeScript examples found: is the reader still finding them?`);
    const files = new Map(found.map((example, i) => [path.join(CLIENT_DIR, `readme-example-${i}.ts`), `// ${example.name}\n${example.source}`]));
    assert.deepEqual(compileErrors(files), []);
  });
});

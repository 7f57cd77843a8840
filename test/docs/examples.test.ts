import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../config';
import { createOrganization, type TestOrganization } from '../helpers/http';
import { stack, startExtraApi } from '../helpers/stack';
import { DOCUMENTED_PORT, docExamples, mismatches, type Example } from './markdown-examples';

// Every curl example of README.md and docs/*.md runs here, with the system's curl, against the
// test stack, in document order, and must answer what the document shows. The convention:
//
// - An example is a curl command in a ```sh block. `localhost:8080` (the documented address) is
//   rewritten, in commands, to an API of the test stack set up as `npm start` sets it up (routing
//   included) and, in the answers shown, to the stack's public URL (output and upload URLs).
//   `$KEY` (or `$LIVE_KEY`) is the live key, `$TEST_KEY` the test key and `$ORG_ID` the id of a
//   fresh Pro organization with 100,000 credits, made like `npm start`'s demo organization;
//   `$ADMIN_TOKEN` is the operator token. `KEY=sk_live_…` lines (a value the reader fills in) are
//   skipped.
// - The answer is the comment that follows the command: `# <status> <JSON>`, where the JSON may go
//   on over further comment lines, or, for a block's last command, `# <status>` alone with the
//   JSON in a ```json block right after the shell block. Each field shown must be there with that
//   value; a bare `…` is any value or "and more"; `…` inside a string is any characters
//   (`"gen_…"`). Text after the JSON is prose.
// - Later examples use what earlier ones answered: `cmp_…` (any `<prefix>_…`) in a command is the
//   last answer's `id` with that prefix, and `$UPLOAD_URL` the last answer's `upload_url`.
// - A GET whose answer does not match yet (a job still running) is asked again, up to 30 s.
// - A block that cannot run here (real provider keys, …) starts with `# not run: <reason>`; the
//   test lists these. Files an example reads (`fox.png`) are made in the folder curl runs in.

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const DOCUMENTED_API = new RegExp(`(?:https?://)?localhost:${DOCUMENTED_PORT}`, 'g');
const RETRY_GET_MS = 30_000;
/** The variables the test supplies; an answer's fields never replace them. */
const SUPPLIED = ['ORG_ID', 'KEY', 'LIVE_KEY', 'TEST_KEY', 'ADMIN_TOKEN'];
const STATUS_MARK = '\n__DOCS_TEST_STATUS__:';
// A 1×1 PNG: what an example uploads as fox.png.
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const files = [
  'README.md',
  ...(existsSync(path.join(ROOT, 'docs'))
    ? readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`)
    : []),
];
const documents = files.map((file) => docExamples(file, readFileSync(path.join(ROOT, file), 'utf8')));

describe('documentation examples', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  let workDir: string;
  /** An API on the test stack configured as `npm start` configures it. */
  let docsApiUrl: string;
  /** Variables the examples read: the keys, then what earlier answers returned. */
  const variables = new Map<string, string>();
  /** The last `id` answered per prefix (`gen`, `cmp`, …). */
  const ids = new Map<string, string>();

  before(async () => {
    try {
      await execFileAsync('curl', ['--version']);
    } catch {
      throw new Error('the documentation examples run with the system curl, which is missing: install it (apt-get install curl, apk add curl, brew install curl)');
    }
    // Which providers serve a live key, as api/server.ts derives it from npm start's configuration.
    const embedded = loadConfig({}, { embedded: true });
    docsApiUrl = (
      await startExtraApi({
        routing: { providerMode: embedded.providerMode, configuredProviders: Object.keys(embedded.providerCredentials), modelRoutes: embedded.modelRoutes },
      })
    ).url;
    org = await createOrganization();
    variables.set('ORG_ID', org.id).set('KEY', org.liveKey).set('LIVE_KEY', org.liveKey).set('TEST_KEY', org.testKey).set('ADMIN_TOKEN', stack().adminToken);
    workDir = await mkdtemp(path.join(os.tmpdir(), 'docs-examples-'));
    await writeFile(path.join(workDir, 'fox.png'), TINY_PNG);
  });

  after(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
    const skipped = documents.flatMap((d) => d.skipped);
    const run = documents.reduce((n, d) => n + d.examples.length, 0);
    process.stdout.write(`\n  documentation: ${run} curl examples run, ${skipped.length} blocks marked not run:\n`);
    for (const s of skipped) process.stdout.write(`    ${s.file}:${s.line}  ${s.reason}\n`);
  });

  it('finds every curl example in a block it runs or one marked `# not run:`, each showing its answer', () => {
    assert.equal(String(loadConfig({}, { embedded: true }).port), DOCUMENTED_PORT, 'the examples use the port npm start serves on');
    assert.deepEqual(
      documents.flatMap((d) => d.problems),
      [],
    );
    const found = documents.reduce((n, d) => n + d.examples.length, 0);
    assert.ok(found >= 20, `only ${found} examples found in README.md and docs/: is the parser still reading them?`);
    assert.ok(documents[0]!.examples.length >= 4, `only ${documents[0]!.examples.length} examples found in README.md's tour: is the parser still reading it?`);
  });

  it('keeps the examples not run few (each names its reason)', () => {
    const skipped = documents.flatMap((d) => d.skipped);
    assert.ok(skipped.length <= 3, `${skipped.length} blocks are marked not run: ${JSON.stringify(skipped)}`);
  });

  for (const example of documents.flatMap((d) => d.examples)) {
    it(`${example.file}:${example.line} ${describeCommand(example.command)} answers as shown`, async () => {
      const command = prepare(example);
      const isGet = !/\s(-X|--request)\s|\s(-d|--data\S*|--upload-file|-T|-F)\s/.test(command);
      const deadline = Date.now() + (isGet ? RETRY_GET_MS : 0);
      for (;;) {
        const answer = await runCurl(command);
        const problems = answerProblems(example, answer);
        if (problems.length === 0) {
          remember(answer.json);
          return;
        }
        if (Date.now() >= deadline) {
          assert.fail(
            `${example.file}:${example.line}: the answer differs from the one shown:\n  ${problems.join('\n  ')}\ncommand: ${command}\nanswer: ${answer.status} ${answer.text.slice(0, 2000)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
  }

  /** The command with the documented address, placeholders and ids made real. */
  function prepare(example: Example): string {
    let command = example.command.replace(DOCUMENTED_API, docsApiUrl);
    command = command.replace(/\b([a-z]{2,6})_…/g, (placeholder, prefix: string) => {
      const id = ids.get(prefix);
      if (!id) assert.fail(`${example.file}:${example.line}: ${placeholder} names an id no earlier example answered`);
      return id;
    });
    for (const [, name] of command.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g)) {
      if (!variables.has(name!)) assert.fail(`${example.file}:${example.line}: $${name} is neither a key the test supplies nor a field an earlier example answered`);
    }
    return command;
  }

  async function runCurl(command: string): Promise<{ status: number; text: string; json: unknown }> {
    // The user's command as written, with curl made to report the status after the body.
    const script = `curl() { command curl "$@" -w '${STATUS_MARK.replace('\n', '\\n')}%{http_code}'; }\n${command}\n`;
    const { stdout } = await execFileAsync('bash', ['-c', script], {
      cwd: workDir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, ...Object.fromEntries(variables) },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { code?: number; stderr?: string; message: string }) => {
      // curl's exit codes: 6 unknown host, 7 no connection (a wrong port), 3 a malformed URL.
      throw new Error(
        `the example failed to run (curl exit code ${error.code}${error.code === 7 ? ': nothing listens there, is it the documented localhost:8080?' : ''}): ${error.stderr || error.message}`,
      );
    });
    const mark = stdout.lastIndexOf(STATUS_MARK);
    assert.ok(mark >= 0, `curl reported no status: ${stdout.slice(0, 500)}`);
    const text = stdout.slice(0, mark);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: Number(stdout.slice(mark + STATUS_MARK.length).trim()), text, json };
  }

  function answerProblems(example: Example, answer: { status: number; text: string; json: unknown }): string[] {
    const shown = example.answer!;
    const problems = answer.status === shown.status ? [] : [`status: shown ${shown.status}, got ${answer.status}`];
    if (shown.body !== undefined) {
      const expected = JSON.parse(JSON.stringify(shown.body).replace(DOCUMENTED_API, stack().apiUrl));
      problems.push(...(answer.json === undefined ? ['body: shown JSON, got none'] : mismatches(expected, answer.json)));
    }
    return problems;
  }

  function remember(json: unknown): void {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return;
    for (const [field, value] of Object.entries(json)) {
      if (typeof value === 'string' && !SUPPLIED.includes(field.toUpperCase())) variables.set(field.toUpperCase(), value);
    }
    const id = (json as { id?: unknown }).id;
    if (typeof id === 'string' && /^[a-z]+_/.test(id)) ids.set(id.slice(0, id.indexOf('_')), id);
  }
});

function describeCommand(command: string): string {
  const method = /\s(?:-X|--request)\s+(\w+)/.exec(command)?.[1] ?? (/\s(-d|--data\S*)\s/.test(command) ? 'POST' : 'GET');
  const target = /(?:(?:https?:\/\/)?localhost:\d+|\$[A-Z_]+)[^\s"'?]*/.exec(command)?.[0]?.replace(/^(https?:\/\/)?localhost:8080/, '') ?? '';
  return `${method} ${target}`;
}

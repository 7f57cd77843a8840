import assert from 'node:assert/strict';
import { commandProblems, docExamples, mismatches, parseShownJson } from './markdown-examples';

// The reader of the documentation's examples: what it accepts as a shown answer, and what it refuses.

const fence = '```';

describe('documentation examples: the answers shown', () => {
  it('checks each field shown, with `…` inside a string for any characters', () => {
    const shown = parseShownJson('{"id":"gen_…","status":"queued","reserved_credits":432,…}');
    assert.deepEqual(mismatches(shown, { id: 'gen_1', status: 'queued', reserved_credits: 432, extra: true }), []);
    assert.deepEqual(mismatches(shown, { id: 'cmp_1', status: 'queued', reserved_credits: 432 }), ['$.id: shown "gen_…", got "cmp_1"']);
    assert.deepEqual(mismatches(shown, { id: 'gen_1', status: 'queued', reserved_credits: 431 }), ['$.reserved_credits: shown 432, got 431']);
    assert.deepEqual(mismatches(shown, { id: 'gen_1', reserved_credits: 432 }), ['$.status: missing']);
  });

  it('reads a bare `…` value as any value that is there, and null as null', () => {
    const shown = parseShownJson('{"charged_credits":…,"error_code":null}');
    assert.deepEqual(mismatches(shown, { charged_credits: 5, error_code: null }), []);
    assert.deepEqual(mismatches(shown, { error_code: null }), ['$.charged_credits: missing']);
    assert.deepEqual(mismatches(shown, { charged_credits: 5, error_code: 'provider_error' }), ['$.error_code: shown null, got "provider_error"']);
  });

  it('holds an array to its length unless `…` says there are more', () => {
    assert.deepEqual(mismatches(parseShownJson('{"data":[{…}]}'), { data: [{ a: 1 }, { a: 2 }] }), ['$.data: shown 1 elements, got 2']);
    assert.deepEqual(mismatches(parseShownJson('{"data":[{"a":1},…]}'), { data: [{ a: 1 }, { a: 2 }] }), []);
    assert.deepEqual(mismatches(parseShownJson('{"data":[{"a":1},…]}'), { data: [] }), ['$.data: shown at least 1 elements, got 0']);
  });
});

describe('documentation examples: the examples found', () => {
  const markdown = [
    '# Title',
    `${fence}sh`,
    'KEY=sk_live_…   # from npm start',
    'curl -s localhost:8080/v1/images -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\',
    `  -d '{"model":"flux-schnell","prompt":"a fox"}'`,
    '# 200, the Generation below',
    fence,
    '',
    'answers:',
    '',
    `${fence}json`,
    '{"object": "generation", "outputs": [{"url": "…"}, …]}',
    fence,
    '',
    `${fence}sh`,
    'curl -s localhost:8080/v1/generations/gen_… -H "Authorization: Bearer $KEY"',
    '# 200 {"id":"gen_…",',
    '#      "status":"succeeded"}   (prose after the JSON)',
    fence,
  ].join('\n');

  it('reads commands, continuation lines, inline answers and a following json block', () => {
    const found = docExamples('X.md', markdown);
    assert.deepEqual(found.problems, []);
    assert.equal(found.examples.length, 2);
    assert.equal(found.examples[0]!.line, 4);
    assert.match(found.examples[0]!.command, /-H "Content-Type: application\/json" -d '\{"model"/);
    assert.deepEqual(found.examples[0]!.answer, { status: 200, body: { object: 'generation', outputs: [{ url: '…' }, '…'] } });
    assert.deepEqual(found.examples[1]!.answer, { status: 200, body: { id: 'gen_…', status: 'succeeded' } });
  });

  it('refuses a curl outside a shell block, an example without its answer, a wrong port and a body without its Content-Type', () => {
    const found = docExamples(
      'X.md',
      [
        '    curl localhost:8080/v1/models',
        '',
        `${fence}sh`,
        'curl -s localhost:3000/v1/models -H "Authorization: Bearer $KEY"',
        'curl -s -X POST localhost:8080/v1/images -d \'{"model":"flux-schnell"}\'',
        '# 200',
        'npm start',
        fence,
      ].join('\n'),
    );
    assert.deepEqual(found.problems, [
      'X.md:1: a curl command outside a ```sh block, so no test runs it: put it in one',
      "X.md:4: localhost:3000: the service's documented address is localhost:8080",
      'X.md:5: a JSON body (-d) without -H "Content-Type: application/json": the API answers 415',
      'X.md:7: `npm start` is neither a curl command nor a placeholder assignment: the test cannot run it (mark the block `# not run: <reason>` if it must stay)',
      'X.md:4: the example shows no answer: add a `# <status> {…}` comment line after it',
    ]);
  });

  it("reads a localhost address inside the JSON body as a webhook receiver's, not the service's", () => {
    assert.deepEqual(commandProblems('curl -s localhost:8080/v1/webhooks -H "Content-Type: application/json" -d \'{"url":"http://localhost:3000/hook"}\''), []);
    assert.deepEqual(commandProblems('curl -s http://localhost:3000/v1/webhooks -H "Content-Type: application/json" -d \'{"url":"http://localhost:3000/hook"}\''), [
      "http://localhost:3000: the service's documented address is localhost:8080",
    ]);
  });

  it('counts a block marked `# not run:` with its reason, and still checks its commands', () => {
    const found = docExamples(
      'X.md',
      [`${fence}bash`, '# not run: needs a real fal key', 'FAL_KEY=… npm start', "curl -s -X POST localhost:8080/v1/images -d '{}'", fence].join('\n'),
    );
    assert.deepEqual(found.skipped, [{ file: 'X.md', line: 1, reason: 'needs a real fal key' }]);
    assert.deepEqual(found.examples, []);
    assert.deepEqual(found.problems, ['X.md:4: a JSON body (-d) without -H "Content-Type: application/json": the API answers 415']);
  });
});

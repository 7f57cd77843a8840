import assert from 'node:assert/strict';
import { generationMemo, PROMPT_EXCERPT_MAX_CHARS, promptExcerpt } from '../../domain/workflow-memo';

// What a workflow's memo may show of a prompt: its start, on one line, without the URLs in it.

describe('the prompt excerpt of a workflow memo', () => {
  it('keeps a short prompt as it is, on one line', () => {
    assert.equal(promptExcerpt('a lighthouse\n  at dawn'), 'a lighthouse at dawn');
  });

  it(`cuts a long prompt to ${PROMPT_EXCERPT_MAX_CHARS} characters, the ellipsis included, counting characters, not UTF-16 units`, () => {
    const excerpt = promptExcerpt('🌊'.repeat(200));
    assert.equal([...excerpt].length, PROMPT_EXCERPT_MAX_CHARS);
    assert.ok(excerpt.endsWith('…'));
    assert.equal(excerpt, `${'🌊'.repeat(PROMPT_EXCERPT_MAX_CHARS - 1)}…`);
  });

  it('replaces every URL, which may carry a token, by <url>', () => {
    assert.equal(promptExcerpt('like https://cdn.example/a.png?token=sk_live_secret and s3://bucket/key'), 'like <url> and <url>');
  });

  it("a generation's memo holds the excerpt, never the prompt", () => {
    const prompt = `${'a very long prompt '.repeat(10)}https://x.example/?sig=abc`;
    const memo = generationMemo({ organizationId: 'org_1', environment: 'live', modality: 'image', model: 'flux-schnell', prompt, endpoint: '/v1/images' });
    assert.deepEqual(Object.keys(memo).sort(), ['endpoint', 'modality', 'model', 'prompt_excerpt']);
    assert.ok(!JSON.stringify(memo).includes(prompt));
    assert.ok(!JSON.stringify(memo).includes('sig=abc'));
  });
});

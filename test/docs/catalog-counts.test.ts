import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_DATA } from '../../domain/catalog-data';
import { MODALITIES } from '../../domain/modalities';

// The documentation's counts of catalog models (README.md and docs/), checked against domain/catalog-data.ts, so that adding a
// model cannot leave a stale number in the prose. A sentence reworded without its number: drop
// its check here too.

const ROOT = path.resolve(__dirname, '../..');
// The README and docs/, read as one text: a count may stand in either.
const README = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
  .map((file) => readFileSync(path.join(ROOT, file), 'utf8'))
  .join('\n');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen'];

function numberOf(text: string): number {
  const word = WORDS.indexOf(text.toLowerCase());
  return word >= 0 ? word : Number(text);
}

function modelsPer(modality: string): number {
  return CATALOG_DATA.filter((m) => m.modality === modality).length;
}

function matchesOf(pattern: RegExp): RegExpExecArray[] {
  const found = [...README.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  assert.ok(found.length > 0, `the README no longer says ${pattern}: if the number is gone, drop this check`);
  return found;
}

describe('README counts of catalog models', () => {
  it('gives the catalog size where it names it', () => {
    for (const pattern of [/`GET \/v1\/models`\s+\((\d+)\s+models\)/, /The\s+catalog\s+holds\s+(\d+)\s+current\s+models/]) {
      for (const match of matchesOf(pattern)) assert.equal(numberOf(match[1]!), CATALOG_DATA.length, match[0]);
    }
  });

  it('gives each modality its number of models in the catalog table', () => {
    const rows = matchesOf(/^\| (\w+) \| (\d+) \|/m).filter((m) => (MODALITIES as readonly string[]).includes(m[1]!));
    assert.deepEqual(Object.fromEntries(rows.map((m) => [m[1], Number(m[2])])), Object.fromEntries(MODALITIES.map((modality) => [modality, modelsPer(modality)])));
  });

  it('counts the Studio+ models', () => {
    for (const match of matchesOf(/(\w+)\s+premium\s+models\s+are\s+Studio\+/)) {
      assert.equal(numberOf(match[1]!), CATALOG_DATA.filter((m) => m.studioPlus).length, match[0]);
    }
  });

  it('names the one modality that has the largest number of models', () => {
    const patterns = [/only\s+(\w+)\s+has\s+(\w+)\s+models/g, /(\w+)\s+is\s+the\s+only\s+modality\s+with\s+(\w+)\s+models/g, /(\w+)\s+has\s+the\s+most,\s+(\w+)/g];
    const claims = patterns.flatMap((pattern) => [...README.matchAll(pattern)]).map((m) => ({ text: m[0], modality: m[1]!, count: numberOf(m[2]!) }));
    assert.ok(claims.length > 0, 'the README no longer names the modality with the most models: if the number is gone, drop this check');
    for (const claim of claims) {
      assert.equal(modelsPer(claim.modality), claim.count, claim.text);
      const asMany = MODALITIES.filter((modality) => modelsPer(modality) >= claim.count);
      assert.deepEqual(asMany, [claim.modality], `${claim.text}: ${asMany.join(', ')} have as many`);
    }
  });
});

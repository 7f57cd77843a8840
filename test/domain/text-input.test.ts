import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findTextFaults, printable, storableProviderText, textFaultOf } from '../../domain/text-input';

// Decisions §5, "Text inputs": the pure rules behind the API's edge check and the provider-output
// cleaning. The HTTP side is test/api/text-inputs.test.ts.

/** A string Postgres stores as sent: no U+0000, no lone surrogate. */
const storable = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));
const badChar = fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF');
/** A string with at least one unstorable character somewhere in it. */
const unstorable = fc.tuple(storable, badChar, storable).map(([a, c, b]) => a + c + b);
const key = storable.filter((s) => s.length > 0 && !s.includes('.'));

/** A JSON value with `bad` placed at the end of a random path; returns the path's param name. */
const withFaultInside = fc.tuple(fc.array(fc.oneof(key, fc.nat({ max: 3 })), { maxLength: 6 }), unstorable, fc.jsonValue()).map(([path, bad, filler]) => {
  let value: unknown = bad;
  const names: string[] = [];
  for (const step of [...path].reverse()) {
    if (typeof step === 'number') {
      const array: unknown[] = Array.from({ length: step }, () => filler);
      array.push(value);
      value = array;
      names.unshift(String(step));
    } else {
      value = { [step]: value };
      names.unshift(step);
    }
  }
  return { value, param: names.length ? names.join('.') : 'body', filler };
});

describe('text inputs (decisions §5)', () => {
  it('names no fault in any JSON value built of storable strings', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        const hasNul = JSON.stringify(value).includes('\\u0000');
        fc.pre(!hasNul);
        assert.deepEqual(findTextFaults(value, 'body'), []);
      }),
    );
  });

  it('names the path of an unstorable string at any depth, in arrays and objects', () => {
    fc.assert(
      fc.property(withFaultInside, ({ value, param, filler }) => {
        // The values before it in arrays hold nothing to refuse, so the first fault is the placed one.
        fc.pre(findTextFaults(filler, 'filler').length === 0);
        const faults = findTextFaults(value, 'body');
        assert.equal(faults[0]?.param, param);
        assert.match(faults[0]!.message, new RegExp(`^Invalid ${param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: must not contain`));
      }),
    );
  });

  it('names an unstorable property name by its path, the bad character written out', () => {
    const faults = findTextFaults({ params_shared: { ok: 1, 'a\u0000b': 2 }, list: [{ '\uD800': 1 }] }, 'body');
    assert.deepEqual(
      faults.map((f) => f.param),
      ['params_shared.a\\u0000b', 'list.0.\\ud800'],
    );
    assert.match(faults[0]!.message, /^Invalid property name params_shared\.a\\u0000b: must not contain the character U\+0000/);
  });

  it('tells a NUL from a lone surrogate, and accepts a surrogate pair', () => {
    assert.equal(textFaultOf('a\u0000'), 'nul');
    assert.equal(textFaultOf('\uD83D'), 'lone_surrogate');
    assert.equal(textFaultOf('\uDE00x'), 'lone_surrogate');
    assert.equal(textFaultOf('\uDE00\uD83D'), 'lone_surrogate', 'a low surrogate before a high one is two lone halves');
    assert.equal(textFaultOf('smile \uD83D\uDE00'), null);
    assert.equal(printable('a\u0000\uD800'), 'a\\u0000\\ud800');
  });

  it('lists at most 20 faults and survives a body nested 100,000 levels deep', () => {
    assert.equal(
      findTextFaults(
        Array.from({ length: 50 }, () => '\u0000'),
        'body',
      ).length,
      20,
    );
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [fault] = findTextFaults(deep, 'body');
    assert.equal(fault?.param.split('.').length, 100_000);
  });

  it('makes any provider text storable, changing nothing else', () => {
    // Any UTF-16 code unit, so every pairing of surrogates turns up, and the bad ones often.
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const anyText = fc.string({ unit: fc.oneof(badChar, codeUnit), maxLength: 100 });
    fc.assert(
      fc.property(anyText, (text) => {
        const clean = storableProviderText(text);
        assert.equal(textFaultOf(clean), null);
        if (textFaultOf(text) === null) assert.equal(clean, text);
        assert.equal(clean.length, text.length - (text.match(/\u0000/g)?.length ?? 0));
      }),
    );
    assert.equal(storableProviderText('Pa\u0000ris\uD800'), 'Paris\uFFFD');
  });
});

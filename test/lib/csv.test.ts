import assert from 'node:assert/strict';
import { csvField, toCsv } from '../../lib/csv';

describe('CSV (RFC 4180)', () => {
  it('leaves plain fields and numbers as they are', () => {
    assert.equal(csvField('flux-dev'), 'flux-dev');
    assert.equal(csvField(12.345), '12.345');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes', () => {
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r'), '"cr\r"');
  });

  it('ends every line, the last included, with CRLF', () => {
    assert.equal(
      toCsv([
        ['key', 'n'],
        ['a,b', 1],
      ]),
      'key,n\r\n"a,b",1\r\n',
    );
    assert.equal(toCsv([]), '');
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_NAMES } from '../../domain/search-attributes';
import { ensureSearchAttributes } from '../../embedded/search-attribute-registration';
import { waitUntilServing } from '../../embedded/temporal-server';
import { stack } from '../helpers/stack';

// The operator-service registration `npm run stack:prod` runs before its workers and APIs start,
// and the dev server runs for a database file from before the attributes existed (its
// `--search-attribute` flags only apply to a new one): every attribute added, idempotently.

describe('registering the search attributes through the operator service', function () {
  this.timeout(90_000);

  it('adds every attribute a namespace lacks, as Keyword, queryable at once; a second run changes nothing', async () => {
    const namespace = `registration-${randomBytes(4).toString('hex')}`;
    const { temporal: client, config } = stack();
    await client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await waitUntilServing(config.temporalAddress!, 30_000, namespace);
    const attributesOf = async () => (await client.connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
    const before = await attributesOf();
    assert.deepEqual(
      SEARCH_ATTRIBUTE_NAMES.filter((name) => name in before),
      [],
      'a new namespace has none of them',
    );

    const lines: string[] = [];
    await ensureSearchAttributes(config.temporalAddress!, namespace, (line) => lines.push(line));
    const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    const after = await attributesOf();
    assert.deepEqual(Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, after[name]])), Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, keyword])));
    assert.equal(lines.length, 1, lines.join('\n'));
    // Queryable: a list naming them all is served.
    await client.workflowService.countWorkflowExecutions({ namespace, query: SEARCH_ATTRIBUTE_NAMES.map((name) => `${name} = 'x'`).join(' AND ') });

    await ensureSearchAttributes(config.temporalAddress!, namespace, (line) => lines.push(line));
    assert.equal(lines.length, 1, 'nothing registered again');
    assert.deepEqual(await attributesOf(), after);
  });
});

import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';

// Registers the service's search attributes (domain/search-attributes.ts) in a namespace through
// the operator service, before any worker or API process starts: a workflow started with an
// attribute the namespace lacks is refused. `npm run stack:prod` registers them this way, and so
// does the dev server for a database file from before they existed (start-dev's
// `--search-attribute` flags only apply to a new one). Idempotent: only the missing ones are added,
// and one another process added meanwhile is no error.

/** gRPC status ALREADY_EXISTS. */
const GRPC_ALREADY_EXISTS = 6;

/** Adds the attributes the namespace lacks, then waits until a visibility query naming them all is served. */
export async function ensureSearchAttributes(address: string, namespace: string, log: (line: string) => void): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.values(SEARCH_ATTRIBUTES).filter((key) => !(key.name in (customAttributes ?? {})));
    if (missing.length > 0) {
      const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${key.type}`]]));
      try {
        await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
        log(`registered the search attributes ${missing.map((key) => key.name).join(', ')} in the Temporal namespace ${namespace}`);
      } catch (err) {
        if ((err as { code?: number }).code !== GRPC_ALREADY_EXISTS) throw err;
      }
    }
    await untilQueryable(connection, namespace);
  } finally {
    await connection.close();
  }
}

/** The frontend validates a query against its cache of the namespace's attributes, refreshed every few seconds. */
async function untilQueryable(connection: Connection, namespace: string): Promise<void> {
  const query = Object.values(SEARCH_ATTRIBUTES)
    .map((key) => `${key.name} = ''`)
    .join(' AND ');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await connection.workflowService.countWorkflowExecutions({ namespace, query });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the search attributes registered in ${namespace} are still not queryable: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

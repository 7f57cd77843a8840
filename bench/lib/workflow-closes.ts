import type { Client } from '@temporalio/client';

// When workflows closed, as Temporal recorded it: a benchmark that times a burst of workflows to
// its last close reads the close times from the server afterwards, so the clock stops where the
// work ends (the close) and not where a client happens to hear of it, and both sides of a
// comparison are timed alike whatever waited on them.

/** How many calls to Temporal are in flight at once while waiting or reading. */
const IN_FLIGHT = 32;

export interface WorkflowClose {
  workflowId: string;
  /** COMPLETED, FAILED, TERMINATED, ...; RUNNING if it had not closed when read. */
  status: string;
  closeTime?: Date;
}

async function eachLimited(ids: string[], fn: (id: string) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(IN_FLIGHT, ids.length) }, async () => {
      while (next < ids.length) await fn(ids[next++]!);
    }),
  );
}

/**
 * Returns once every workflow has closed, however it closed (a failure is read afterwards, by
 * `closesOf`): one result() long-poll each, IN_FLIGHT at a time, answered at once for one already
 * closed.
 */
export async function untilClosed(client: Client, ids: string[]): Promise<void> {
  await eachLimited(ids, async (id) => {
    await client.workflow
      .getHandle(id)
      .result()
      .catch(() => undefined);
  });
}

/** Each workflow's status and close time (its latest run), described by the server. */
export async function closesOf(client: Client, ids: string[]): Promise<WorkflowClose[]> {
  const closes: WorkflowClose[] = [];
  await eachLimited(ids, async (id) => {
    const description = await client.workflow.getHandle(id).describe();
    closes.push({ workflowId: id, status: description.status.name, ...(description.closeTime && { closeTime: description.closeTime }) });
  });
  return closes;
}

import { createPollHintHub, type PollHints } from '../activities/poll-hints';
import { startPgListener } from '../db/pg-listener';
import { PROVIDER_CALLBACK_CHANNEL } from '../db/provider-callbacks';
import type { Logger } from '../lib/logger';

/**
 * This worker's poll hints (activities/poll-hints.ts): LISTENs on the providers' callbacks, which
 * every worker hears; the one polling that generation's job wakes its poll.
 */
export async function startPollHintListener(databaseUrl: string, logger: Logger): Promise<{ hints: PollHints; close(): Promise<void> }> {
  const hub = createPollHintHub();
  const listener = await startPgListener({ databaseUrl, channel: PROVIDER_CALLBACK_CHANNEL, onNotification: (id) => hub.notify(id), logger });
  return { hints: hub, close: () => listener.close() };
}

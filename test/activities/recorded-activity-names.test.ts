import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createActivities } from '../../activities';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { HISTORIES_DIR } from '../fixtures/histories/shapes';
import { stack } from '../helpers/stack';

// A recorded history replays against the workflow code alone (test/workflows/replay.test.ts), which
// never runs an activity: an activity renamed or dropped (say a legacy one, which only workflows
// from before a patch call, removed before its patch is deprecated) would still replay, and then fail every such workflow in flight. So every activity type the recorded
// histories schedule, remote or local, must be one the worker registers.

interface HistoryEvent {
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  markerRecordedEventAttributes?: { markerName?: string; details?: { data?: { payloads?: { data?: string }[] } } };
}

/** The activity types a history's remote activities and local-activity markers name. */
function activityTypesOf(events: HistoryEvent[]): string[] {
  return events.flatMap((event) => {
    const remote = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (remote) return [remote];
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
    if (!data) return [];
    const local = (JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { activity_type?: string }).activity_type;
    return local ? [local] : [];
  });
}

describe('the activities of recorded workflow histories', () => {
  it('are all registered by the worker, under the names the histories scheduled them by', async () => {
    const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json'));
    const scheduled = new Map<string, string>();
    for (const file of files) {
      const { events } = JSON.parse(await readFile(path.join(HISTORIES_DIR, file), 'utf8')) as { events: HistoryEvent[] };
      for (const type of activityTypesOf(events)) if (!scheduled.has(type)) scheduled.set(type, file);
    }
    // Both kinds are read (a remote and a local provider step), or the check below would pass vacuously.
    for (const type of ['runProviderJob', 'runProvider']) assert.ok(scheduled.has(type), `a recorded history schedules ${type}`);

    const activities: Record<string, unknown> = createActivities({
      knex: stack().knex,
      repos: stack().repos,
      storage: stack().apiDeps.storage,
      providers: createProviderRegistry({ simulator: createSimulator({ asyncLatencyMs: 1_000 }), providerMode: 'simulated' }),
    });
    const missing = [...scheduled].filter(([type]) => typeof activities[type] !== 'function').map(([type, file]) => `${type} (scheduled in ${file})`);
    assert.deepEqual(missing, [], 'activities that recorded histories schedule but the worker no longer registers');
  });
});

import type { Repos } from '../db/repos';
import { newId } from '../lib/ids';

export type GenerationEventType = 'generation.completed' | 'generation.failed';

export function createEventActivities(deps: { repos: Repos }) {
  const { repos } = deps;
  return {
    /** Writes the event to the outbox, once per (type, generation); delivery reads it from there. */
    async emitEvent(args: { type: GenerationEventType; generationId: string }): Promise<void> {
      const gen = await repos.generations.findById(args.generationId);
      if (!gen) throw new Error(`generation ${args.generationId} does not exist`);
      await repos.events.append({
        id: newId('evt'),
        organization_id: gen.organization_id,
        environment: gen.environment,
        type: args.type,
        subject_id: gen.id,
        data: {
          generation_id: gen.id,
          modality: gen.modality,
          status: gen.status,
          charged_credits: gen.charged_credits,
        },
      });
    },
  };
}

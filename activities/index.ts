import type { Knex } from 'knex';
import type { Repos } from '../db/repos';
import type { Storage } from '../storage/types';
import { createCreditActivities } from './credits';
import { createGenerationActivities } from './generations';
import type { ProviderRegistry } from './providers/registry';

export interface ActivityDeps {
  knex: Knex;
  repos: Repos;
  storage: Storage;
  providers: ProviderRegistry;
  callbackUrlFor?: (generationId: string) => string;
}

/** Every activity, bound to its dependencies; tests pass a real database here. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCreditActivities(deps),
    ...createGenerationActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

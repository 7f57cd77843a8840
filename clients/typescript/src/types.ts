import type { components, paths } from './generated/openapi.js';

// Short names for the generated schema types the hand-written layer and its users handle.

type Schemas = components['schemas'];

export type Generation = Schemas['Generation'];
export type Comparison = Schemas['Comparison'];
export type ChatCompletion = Schemas['ChatCompletion'];
export type ErrorBody = Schemas['Error'];
export type WebhookEvent =
  Schemas['GenerationCompletedEvent'] | Schemas['GenerationFailedEvent'] | Schemas['ComparisonCompletedEvent'] | Schemas['BudgetThresholdEvent'] | Schemas['AnomalyDetectedEvent'];

/** The JSON body an operation (`paths[path][method]`) takes. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** The query an operation takes. */
export type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

import { ApiError } from '../errors';

// A request's price ceiling (`max_credits`, docs/api.md "Price ceiling"): any creation body may carry
// it. It is taken off the body here, before the endpoint's own schema reads the rest, so that one
// rule validates it for every endpoint and a comparison's children never see it; the ceiling is
// then held against the reservation the request would make (api/admission/reservation.ts), before
// anything is reserved.

/** A creation body without `max_credits`, and the ceiling it carried, if any. */
export function takeMaxCredits(rawBody: unknown): { body: unknown; maxCredits: number | undefined } {
  if (typeof rawBody !== 'object' || rawBody === null || Array.isArray(rawBody) || !('max_credits' in rawBody)) return { body: rawBody, maxCredits: undefined };
  const { max_credits: maxCredits, ...body } = rawBody as Record<string, unknown>;
  if (typeof maxCredits !== 'number' || !Number.isSafeInteger(maxCredits) || maxCredits < 1) {
    throw new ApiError('validation_failed', 'Invalid max_credits: must be a positive integer (the most credits this request may reserve).', { param: 'max_credits' });
  }
  return { body, maxCredits };
}

/** What one child of a comparison would reserve, for the refusal's details. */
export interface ChildReservation {
  model: string;
  credits: number;
}

/** 402 max_cost_exceeded when the reservation is over the ceiling; at or under it, nothing. */
export function refuseOverCeiling(maxCredits: number | undefined, credits: number, children?: readonly ChildReservation[]): void {
  if (maxCredits === undefined || credits <= maxCredits) return;
  const what = children
    ? `This comparison would reserve ${credits} credits (the sum of its ${children.length} models' reservations)`
    : `This request would reserve ${credits} credits`;
  throw new ApiError('max_cost_exceeded', `${what}, over its max_credits of ${maxCredits}. Nothing was reserved. Raise max_credits or lower the request's cost.`, {
    param: 'max_credits',
    ...(children && { details: children.map((c, i) => ({ param: `models.${i}`, message: `Model '${c.model}' would reserve ${c.credits} credits.` })) }),
  });
}

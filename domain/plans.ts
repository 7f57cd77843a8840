// Plans and what they change (spec §1, §8).

export const PLANS = ['free', 'pro', 'studio', 'team'] as const;
export type Plan = (typeof PLANS)[number];

/** Multipliers in tenths so that credit arithmetic stays in integers (1.6 is not exact in binary). */
export const PLAN_MULTIPLIER_TENTHS: Record<Plan, number> = { free: 10, pro: 16, studio: 16, team: 13 };

/** Studio+ models need a Studio or Team plan. */
export function planAllowsStudioPlus(plan: Plan): boolean {
  return plan === 'studio' || plan === 'team';
}

/** The most models one comparison may send to, by plan (spec §8). */
export const COMPARISON_MODEL_CAP: Record<Plan, number> = { free: 2, pro: 3, studio: 6, team: 12 };

/** What any plan allows (spec §8): a comparison outside it is malformed, not over a plan's cap. */
export const COMPARISON_MODELS = { min: 2, max: 12 } as const;

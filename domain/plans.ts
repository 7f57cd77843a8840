// Plans and what they change (spec §1, §8).

export const PLANS = ['free', 'pro', 'studio', 'team'] as const;
export type Plan = (typeof PLANS)[number];

/** Multipliers in tenths so that credit arithmetic stays in integers (1.6 is not exact in binary). */
export const PLAN_MULTIPLIER_TENTHS: Record<Plan, number> = { free: 10, pro: 16, studio: 16, team: 13 };

/** Studio+ models need a Studio or Team plan. */
export function planAllowsStudioPlus(plan: Plan): boolean {
  return plan === 'studio' || plan === 'team';
}

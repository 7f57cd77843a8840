import type { IncomingHttpHeaders } from 'node:http';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import { getWalletBalance } from '../../db/ledger';
import { budgetPeriodOf, spentInRequestMonth } from '../../domain/budget-period';
import { creditsToUsd, pricingInputs, type PricingInputs } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { SANDBOX_BALANCE } from '../presenters/balance';
import { checkRouteAccess } from '../middleware/authorize';
import { takeRetention } from '../middleware/output-retention';
import { ROUTES, type RouteName } from '../route-table';
import { parseComparisonRequest } from '../schemas/comparisons';
import type { QuotableEndpoint } from '../schemas/quotes';
import { budgetExceeded } from './budget-exceeded';
import { deadlineFromHeader } from './cancel-after';
import { buildComparisonRequests, resolveComparisonModels } from './comparison-requests';
import type { GenerationRequest } from './generation-request';
import { REQUEST_BUILDERS } from './generation-requests';
import { buildOpenAiChatRequest } from './generation-requests/openai-chat';
import { createInputFetcher } from './inputs';
import { refuseOverCeiling, takeMaxCredits } from './max-credits';
import { reservationOf } from './reservation';

// A dry run of a creation request (POST /v1/quotes, docs/api.md "Quotes"): the same checks, in the
// same order, by the same code as the endpoint itself (the route's role and scope, `retention`, the body's
// schema, the model, plan and Studio+ gates, the model's limits, the input files, `Cancel-After`, the price
// ceiling, the key's monthly budget), and the reservation it would make, from the same function
// admission uses (./reservation.ts). Nothing is reserved and no generation, workflow or
// idempotency record is made. The wallet is not a refusal: a quote says whether it covers the
// request (`affordable`), since a quote is how a customer learns what to top up.

/** The route each quotable endpoint is, for its access rule. */
const ROUTE_OF: Record<QuotableEndpoint, RouteName> = {
  '/v1/images': 'createImage',
  '/v1/videos': 'createVideo',
  '/v1/voice': 'createVoice',
  '/v1/music': 'createMusic',
  '/v1/avatars': 'createAvatar',
  '/v1/chat': 'createChat',
  '/v1/three-d': 'createThreeD',
  '/v1/upscale': 'createUpscale',
  '/v1/openai/chat/completions': 'openAiChatCompletion',
  '/v1/comparisons': 'createComparison',
};

/** One generation the request would create, and what its admission would reserve. */
export interface QuoteLine {
  model: string;
  credits: number;
  usd: number;
  /** Only simulated output can come (sandbox, or simulated mode): reserved at 0 whatever the price. */
  simulated: boolean;
  pricing: PricingInputs;
}

export interface Quote {
  object: 'quote';
  endpoint: QuotableEndpoint;
  credits: number;
  usd: number;
  max_credits: number | null;
  /** The organization's wallet now, and whether it covers `credits` (a real request is refused 402 insufficient_credits when not). */
  available_credits: number;
  affordable: boolean;
  generations: QuoteLine[];
}

export async function quoteRequest(deps: ApiDeps, principal: KeyPrincipal, endpoint: QuotableEndpoint, rawBody: unknown, headers: IncomingHttpHeaders): Promise<Quote> {
  const route = ROUTES[ROUTE_OF[endpoint]];
  if (route.access.kind !== 'api_key') throw new Error(`quotable route ${endpoint} is not an API-key route`);
  checkRouteAccess(principal, route.access);
  const { body: withoutRetention } = await takeRetention(deps, principal, rawBody);
  const { body, maxCredits } = takeMaxCredits(withoutRetention);
  const requests = await buildRequests(deps, principal, endpoint, body);
  // The quote request's own Cancel-After, held to the priced endpoint's limit as that request would be.
  deadlineFromHeader(headers, requests[0]!.model.modality, deps.generationTimeouts, Date.now());
  const lines = requests.map((request): QuoteLine => {
    const { credits, simulated } = reservationOf(deps, principal, request);
    return {
      model: request.model.slug,
      credits,
      usd: creditsToUsd(credits),
      simulated,
      pricing: pricingInputs(request.model, request.measure, principal.plan),
    };
  });
  const credits = lines.reduce((sum, line) => sum + line.credits, 0);
  refuseOverCeiling(maxCredits, credits, endpoint === '/v1/comparisons' ? lines.map((line) => ({ model: line.model, credits: line.credits })) : undefined);
  await refuseOverBudget(deps, principal, credits);
  // A test key never reads the live wallet (decisions §10): it sees the sandbox, as GET /v1/balance does.
  const wallet = principal.environment === 'live' ? await getWalletBalance(deps.knex, principal.organizationId) : SANDBOX_BALANCE;
  return {
    object: 'quote',
    endpoint,
    credits,
    usd: creditsToUsd(credits),
    max_credits: maxCredits ?? null,
    available_credits: wallet.availableCredits,
    affordable: wallet.availableCredits >= credits,
    generations: lines,
  };
}

/** The requests the endpoint would start, built by its own builders (a comparison: one per model). */
async function buildRequests(deps: ApiDeps, principal: KeyPrincipal, endpoint: QuotableEndpoint, body: unknown): Promise<GenerationRequest[]> {
  switch (endpoint) {
    case '/v1/comparisons': {
      const request = parseComparisonRequest(body);
      return buildComparisonRequests(deps, principal, request, resolveComparisonModels(request, principal));
    }
    case '/v1/openai/chat/completions':
      return [(await buildOpenAiChatRequest(deps, principal, body)).request];
    default: {
      const modality = ROUTE_MODALITY[endpoint];
      return [await REQUEST_BUILDERS[modality](deps, principal, body, createInputFetcher(deps, principal))];
    }
  }
}

const ROUTE_MODALITY = {
  '/v1/images': 'image',
  '/v1/videos': 'video',
  '/v1/voice': 'voice',
  '/v1/music': 'music',
  '/v1/avatars': 'avatar',
  '/v1/chat': 'chat',
  '/v1/three-d': '3d',
  '/v1/upscale': 'upscale',
} as const;

/**
 * The key's monthly budget, decided by the very rule admission runs: `budget_admits`
 * (db/migrations/0017-budget-months.ts), in a transaction that is rolled back, so the refusal's
 * `usage.budget_threshold` event and the spend row's lock go with it. Nothing is written.
 */
async function refuseOverBudget(deps: ApiDeps, principal: KeyPrincipal, credits: number): Promise<void> {
  const trx = await deps.knex.transaction();
  let admits: boolean;
  try {
    const { rows } = await trx.raw('SELECT budget_admits(?, ?::date, ?::bigint) AS ok', [principal.apiKeyId, budgetPeriodOf(deps.clock()), credits]);
    admits = rows[0].ok === true;
  } finally {
    await trx.rollback();
  }
  if (admits) return;
  const budget = await deps.repos.apiKeys.budgetOf(principal.apiKeyId);
  const spent = budget ? spentInRequestMonth(budget, budgetPeriodOf(deps.clock())) : 0;
  throw budgetExceeded({ budgetUsd: budget?.budgetUsd ?? null, spentUsd: creditsToUsd(spent) }, credits);
}

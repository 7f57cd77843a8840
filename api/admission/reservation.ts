import type { KeyPrincipal } from '../../db/repos/api-keys';
import { admissionCredits, type PricingSnapshot } from '../../domain/pricing';
import { pricingSnapshot } from '../../domain/pricing-snapshot';
import { simulatedOnly } from '../../domain/provider-routing';
import type { ProviderRoute } from '../../domain/providers';
import type { ApiDeps } from '../context';
import type { GenerationRequest } from './generation-request';
import { requestRoutes } from './resolve-model';

// The reservation a built request makes, decided in one place for the three callers that need it:
// a generation's admission, a comparison's (per child), and a quote (api/admission/quote.ts), which
// must answer exactly what the other two then reserve.

export interface Reservation {
  /** The credits the admission reserves: the estimate, or 0 when only simulated output can come. */
  credits: number;
  routes: ProviderRoute[];
  /** Only simulated output can come (decisions §4, §7), which is why `credits` may be 0. */
  simulated: boolean;
  /** The price it is admitted at, stored with the job and charged at on capture (domain/pricing-snapshot.ts). */
  pricing: PricingSnapshot;
}

export function reservationOf(deps: Pick<ApiDeps, 'routing'>, principal: KeyPrincipal, request: GenerationRequest): Reservation {
  const routes = requestRoutes(request.model, principal, deps.routing);
  return {
    credits: admissionCredits(request.estimatedCredits, routes),
    routes,
    simulated: simulatedOnly(routes),
    pricing: pricingSnapshot(request.model, principal.plan),
  };
}

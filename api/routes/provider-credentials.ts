import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { RealProvider } from '../../domain/providers';
import { providerBaseUrlSetting } from '../../config';
import { providerCredentialBinding } from '../../lib/secret-bindings';
import type { SecretBox } from '../../lib/secret-box';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentProviderCredential } from '../presenters/provider-credential';
import { ROUTES } from '../route-table';
import { parseProviderParam, parsePutProviderCredential } from '../schemas/provider-credentials';

// /v1/provider-credentials (issue 13, decisions §7): the provider keys an Enterprise organization
// brings (BYOK), used instead of the platform's for its live requests. A key is sealed at rest
// (PROVIDER_SECRETS_KEY) and never returned; only the worker opens it, to call the provider.
//
// The keys belong to the organization, not to an environment, and only live requests use them
// (the sandbox always runs on the simulator): a test key may list them, only a live key may
// change them, as with users. Storing one needs Enterprise; listing and deleting do not, so an
// organization that lost Enterprise can still see and remove what it stored.

/** Four characters are a hint only on a long key; of a short one they would give too much away. */
const HINT_MIN_KEY_LENGTH = 12;

function keyHintOf(apiKey: string): string {
  return apiKey.length >= HINT_MIN_KEY_LENGTH ? apiKey.slice(-4) : '';
}

function assertLiveKey(principal: KeyPrincipal): void {
  if (principal.environment === 'live') return;
  throw new ApiError('insufficient_role', "Provider keys serve the organization's live requests, so a test key may list them but not change them; use a live key.");
}

function assertEnterprise(principal: KeyPrincipal): void {
  if (principal.enterprise) return;
  throw new ApiError('plan_upgrade_required', 'Bringing your own provider keys is an Enterprise feature; ask your operator to enable Enterprise.');
}

/** A key is only worth storing if this server can call the provider with it. */
function assertUsableHere(deps: ApiDeps, provider: RealProvider): void {
  if (deps.byokProviders.includes(provider)) return;
  throw new ApiError(
    'validation_failed',
    `Provider '${provider}' has no base URL on this server, so a key for it could not be used: its operator must set ${providerBaseUrlSetting(provider)}.`,
    { param: 'provider' },
  );
}

function providerSecretsOf(deps: ApiDeps): SecretBox {
  if (!deps.providerSecrets) {
    throw new ApiError('service_unavailable', 'Provider keys cannot be stored on this server: its operator must set PROVIDER_SECRETS_KEY.');
  }
  return deps.providerSecrets;
}

export function registerProviderCredentialRoutes(router: AppRouter, deps: ApiDeps): void {
  const credentials = deps.repos.providerCredentials;

  defineRoute(router, deps, ROUTES.listProviderCredentials, async (ctx) => {
    const rows = await credentials.list(principalOf(ctx).organizationId);
    ctx.body = { object: 'list', data: rows.map(presentProviderCredential), has_more: false };
  });

  defineRoute(router, deps, ROUTES.putProviderCredential, async (ctx) => {
    const principal = principalOf(ctx);
    assertLiveKey(principal);
    const provider = parseProviderParam(ctx.params.provider);
    const body = parsePutProviderCredential(ctx.state.body);
    assertEnterprise(principal);
    assertUsableHere(deps, provider);
    const row = await credentials.upsert({
      organizationId: principal.organizationId,
      provider,
      sealedApiKey: providerSecretsOf(deps).seal(body.api_key, providerCredentialBinding(principal.organizationId, provider)),
      keyHint: keyHintOf(body.api_key),
    });
    // The organization's next request, on any API process, routes with this key (KeyPrincipal.ownProviders).
    await deps.principals.settle();
    ctx.body = presentProviderCredential(row);
  });

  defineRoute(router, deps, ROUTES.deleteProviderCredential, async (ctx) => {
    const principal = principalOf(ctx);
    assertLiveKey(principal);
    const provider = parseProviderParam(ctx.params.provider);
    if (!(await credentials.delete(principal.organizationId, provider))) {
      throw new ApiError('resource_not_found', `This organization has no key of its own for provider '${provider}'.`, { param: 'provider' });
    }
    // Once this answers, no API process routes a new request of the organization to this key.
    await deps.principals.settle();
    ctx.body = { object: 'provider_credential', provider, deleted: true };
  });
}

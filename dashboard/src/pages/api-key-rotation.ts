import type { Api, Schemas } from '../api';

// Rotation (docs/dashboard.md, "API keys and users"): the API has no rotate endpoint, so rotating
// is creating a new key with the old one's settings; the old key is revoked only once the person
// confirms that the new secret is stored, so nothing stops working before its replacement is in place.

type ApiKey = Schemas['ApiKey'];

/** A new key with `old`'s name, environment, role, scopes, budget and allowlist. */
export async function createReplacement(api: Api, old: ApiKey): Promise<Schemas['ApiKeyWithSecret']> {
  const created = await api.apiKeys.create({
    name: old.name,
    environment: old.environment,
    role: old.role,
    scopes: old.scopes,
    ...(old.monthly_budget_usd !== null && { monthly_budget_usd: old.monthly_budget_usd }),
  });
  if (!old.ip_allowlist.length) return created;
  // If the allowlist cannot be copied, the replacement must not be usable from anywhere: revoke it.
  try {
    return { ...(await api.apiKeys.update(created.id, { ipAllowlist: old.ip_allowlist })), secret: created.secret };
  } catch (err) {
    await api.apiKeys.revoke(created.id).catch(() => undefined);
    throw err;
  }
}

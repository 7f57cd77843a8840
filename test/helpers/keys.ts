import type { Role } from '../../domain/access';
import type { Environment } from '../../domain/generation-status';
import { generateApiKeySecret } from '../../domain/api-key-secret';
import { newId } from '../../lib/ids';
import { stack } from './stack';

/** A key created by a user of `role` in the organization, for authorization tests. */
export async function createKeyWithRole(organizationId: string, role: Role, opts: { scopes?: string[]; environment?: Environment } = {}): Promise<string> {
  const { repos } = stack();
  const user = await repos.users.create({ id: newId('usr'), organization_id: organizationId, name: `${role} user`, role });
  const environment = opts.environment ?? 'live';
  const { secret, prefix, secretHash } = generateApiKeySecret(environment);
  await repos.apiKeys.create({
    id: newId('key'),
    organization_id: organizationId,
    user_id: user.id,
    name: `${role} key`,
    environment,
    prefix,
    secret_hash: secretHash,
    scopes: opts.scopes ?? [],
  });
  return secret;
}

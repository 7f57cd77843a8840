import type { Config } from '../config';

/**
 * The start-up line that says how live keys are served on this start (decisions §7): which
 * providers have credentials, and what PROVIDER_MODE does with a model that has none. Printed by
 * `npm start`, whose embedded mode defaults to `simulated`, and by `npm run stack:prod` (`live`).
 */
export function providerModeLine(config: Pick<Config, 'providerMode' | 'providerCredentials'>): string {
  const configured = Object.keys(config.providerCredentials);
  const providers = configured.length > 0 ? `${configured.join(', ')} configured` : 'no provider configured';
  return config.providerMode === 'simulated'
    ? `Providers      ${providers}; PROVIDER_MODE=simulated: live keys run models without credentials on the simulator, for 0 credits`
    : `Providers      ${providers}; PROVIDER_MODE=live: models without credentials answer 503 to live keys`;
}

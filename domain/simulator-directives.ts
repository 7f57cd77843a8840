// Magic strings the simulator reads from a prompt, like a payment processor's test card numbers
// (decisions §7).

export interface SimulatorDirectives {
  /** `#fail`: fail every model. */
  failAll: boolean;
  /** `#fail:<slug>`: fail only these models. */
  failModels: string[];
  /** `#slow:<ms>`: delay completion. */
  slowMs: number;
  /** `#tokens:<n>`: chat reports n output tokens. */
  tokens: number | undefined;
}

const MAX_SLOW_MS = 10 * 60 * 1000;

export function parseSimulatorDirectives(text: string): SimulatorDirectives {
  const directives: SimulatorDirectives = { failAll: false, failModels: [], slowMs: 0, tokens: undefined };
  for (const match of text.matchAll(/#(fail|slow|tokens)(?::([^\s#]+))?/g)) {
    const [, name, arg] = match;
    if (name === 'fail') {
      if (arg) directives.failModels.push(arg);
      else directives.failAll = true;
    } else if (name === 'slow' && arg && /^\d+$/.test(arg)) {
      directives.slowMs = Math.min(Number(arg), MAX_SLOW_MS);
    } else if (name === 'tokens' && arg && /^\d+$/.test(arg)) {
      directives.tokens = Number(arg);
    }
  }
  return directives;
}

export function shouldFail(directives: SimulatorDirectives, slug: string): boolean {
  return directives.failAll || directives.failModels.includes(slug);
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../embedded/temporal-cli';

// docker-compose.yml as Compose reads it, for tests that hold it to the production mode without
// Docker: YAML with anchors and merge keys, then Compose's variable interpolation in every value.

export interface ComposeService {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  networks?: Record<string, { aliases?: string[] } | null>;
  deploy?: { replicas?: number };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  configs?: Record<string, { content?: string }>;
}

export class MissingVariableError extends Error {}

/**
 * Compose's interpolation, for the forms the file uses: `$$` (a literal `$`), `${X}`, `${X:-default}`
 * (default when unset or empty), `${X-default}` (when unset), `${X:?message}` and `${X?message}`
 * (refuse to run). Anything else is an error, so a new form cannot go by untested.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([^}]*)\}|\$[A-Za-z_]/g, (match, body: string | undefined) => {
    if (match === '$$') return '$';
    if (body === undefined) throw new Error(`unbraced variable ${match}… in docker-compose.yml: write \${…}`);
    const form = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])(.*))?$/s.exec(body);
    if (!form) throw new Error(`unsupported interpolation \${${body}} in docker-compose.yml`);
    const [, name, colon, operator, argument = ''] = form;
    const value = env[name!];
    const missing = value === undefined || (colon === ':' && value === '');
    if (operator === '-') return missing ? interpolate(argument, env) : value!;
    if (operator === '?') {
      if (missing) throw new MissingVariableError(`${name}: ${argument}`);
      return value!;
    }
    return value ?? '';
  });
}

function interpolateValues(node: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateValues(item, env));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateValues(value, env)]));
  }
  return node;
}

export const COMPOSE_FILE = path.join(PROJECT_ROOT, 'docker-compose.yml');

/** docker-compose.yml with `env` as the operator's environment (and .env file). */
export function loadComposeFile(env: Record<string, string | undefined>): ComposeFile {
  const document: unknown = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });
  return interpolateValues(document, env) as ComposeFile;
}

/** A long-syntax-free volume entry: `source:target[:mode]`. */
export function parseVolume(entry: string): { source: string; target: string; readOnly: boolean } {
  const [source, target, mode] = entry.split(':');
  if (!source || !target) throw new Error(`volume "${entry}" is not source:target[:mode]`);
  return { source, target, readOnly: mode === 'ro' };
}

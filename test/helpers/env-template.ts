// config/temporal/production.yaml is a Go template the Temporal server renders with sprig. Its
// actions are all of one kind, `{{ env "X" | default "Y" | quote }}` (default and quote optional);
// this renders exactly that kind, and refuses any other action, so that a template change it does
// not understand fails the test instead of being rendered wrong.

export interface EnvTemplateAction {
  variable: string;
  /** Absent: the action has no `default`, so the variable must be set. */
  fallback: string | undefined;
  quote: boolean;
}

const ACTION = /\{\{(.*?)\}\}/g;

/** A Go interpreted string literal, as far as this file uses them: JSON's syntax is the same. */
function stringLiteral(text: string, action: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string') return value;
  } catch {
    // reported below
  }
  throw new Error(`unsupported string ${text} in template action {{${action}}}`);
}

function parseAction(action: string): EnvTemplateAction {
  const stages = action.split('|').map((stage) => stage.trim());
  const env = /^env ("[^"]*")$/.exec(stages[0] ?? '');
  if (!env) throw new Error(`unsupported template action {{${action}}}: only env "X" | default "Y" | quote`);
  const parsed: EnvTemplateAction = { variable: stringLiteral(env[1]!, action), fallback: undefined, quote: false };
  for (const stage of stages.slice(1)) {
    const fallback = /^default ("[^"]*")$/.exec(stage);
    if (fallback && parsed.fallback === undefined && !parsed.quote) parsed.fallback = stringLiteral(fallback[1]!, action);
    else if (stage === 'quote' && !parsed.quote) parsed.quote = true;
    else throw new Error(`unsupported stage "${stage}" in template action {{${action}}}`);
  }
  return parsed;
}

/** Every action of the template, in order. */
export function envTemplateActions(template: string): EnvTemplateAction[] {
  return [...template.matchAll(ACTION)].map((match) => parseAction(match[1]!));
}

/**
 * The template rendered with `env`: sprig's env gives "" for an unset variable, default replaces an
 * empty value, quote gives a double-quoted string (Go's %q, which JSON matches for printable ASCII).
 */
export function renderEnvTemplate(template: string, env: Record<string, string | undefined>): string {
  return template.replace(ACTION, (_, action: string) => {
    const { variable, fallback, quote } = parseAction(action);
    const value = env[variable] || fallback || '';
    if (quote && !/^[\x20-\x7e]*$/.test(value)) throw new Error(`${variable}: only printable ASCII is rendered here, got ${JSON.stringify(value)}`);
    return quote ? JSON.stringify(value) : value;
  });
}

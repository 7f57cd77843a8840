// Decisions §5, "Text inputs": two kinds of string Postgres cannot store, which therefore never get
// past the API's edge and never leave a provider's answer unchecked.
// - U+0000: text and jsonb columns refuse it (SQLSTATE 22021 / 22P05), so it could only ever fail
//   an insert after the request had been admitted.
// - A lone UTF-16 surrogate (`"\ud800"` in JSON text parses into one): jsonb refuses it, and a text
//   column silently stores U+FFFD instead, so what was stored would not be what was sent.

export type TextFault = 'nul' | 'lone_surrogate';

/** One string (or property name) of a request that cannot be stored. */
export interface TextInputFault {
  /** Where, as ajv errors name a field: `messages.0.content`; a property name is its own segment. */
  param: string;
  message: string;
}

// Without the `u` flag a regex sees UTF-16 code units, which is what a lone surrogate is.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ONE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);
const UNSTORABLE = new RegExp(UNSTORABLE_ONE.source, 'g');

export function textFaultOf(text: string): TextFault | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  return null;
}

/** `text` with its unstorable characters written out as `\uXXXX`, safe to echo in an error message. */
export function printable(text: string): string {
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const FAULT_WORDS: Record<TextFault, string> = {
  nul: 'must not contain the character U+0000 (NUL)',
  lone_surrogate: 'must not contain a lone UTF-16 surrogate (such as "\\ud800" without its pair); send valid Unicode text',
};

export function describeTextFault(fault: TextFault): string {
  return FAULT_WORDS[fault];
}

/** Stops a huge bad body from building a huge error; the first fault is the one `param` names. */
const MAX_FAULTS = 20;

/**
 * Whether any string of `value` (key or value, at any depth) cannot be stored: the fast first look,
 * which keeps no paths, so the usual request (nothing wrong) costs one pass and no allocation per
 * field; only a request at fault pays for naming its fields.
 */
function hasTextFault(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (UNSTORABLE_ONE.test(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (UNSTORABLE_ONE.test(key)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

interface Node {
  value: unknown;
  /** This node's property name or array index; null for the root. */
  key: string | null;
  parent: Node | null;
  /** The node stands for a property name, not its value. */
  isKey?: true;
}

function paramOf(node: Node, root: string): string {
  const segments: string[] = [];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) segments.push(printable(at.key));
  return segments.length ? segments.reverse().join('.') : root;
}

/**
 * Every string of a parsed JSON value (keys and values, at any depth) that cannot be stored, in
 * document order, at most 20. `root` names the whole value ('body'); nested fields are named
 * without it (`messages.0.content`), as ajv's errors name them. Walks with its own stack and parent
 * links, so a deeply nested body can neither overflow the call stack nor copy its path per level.
 */
export function findTextFaults(value: unknown, root: string): TextInputFault[] {
  const faults: TextInputFault[] = [];
  if (!hasTextFault(value)) return faults;
  const pending: Node[] = [{ value, key: null, parent: null }];
  while (pending.length && faults.length < MAX_FAULTS) {
    const node = pending.pop()!;
    if (node.isKey || typeof node.value === 'string') {
      const fault = textFaultOf(node.isKey ? node.key! : (node.value as string));
      if (!fault) continue;
      const param = paramOf(node, root);
      const what = node.isKey ? `property name ${param}` : param;
      faults.push({ param, message: `Invalid ${what}: ${describeTextFault(fault)}.` });
      continue;
    }
    if (node.value === null || typeof node.value !== 'object') continue;
    const children: Node[] = [];
    if (Array.isArray(node.value)) {
      node.value.forEach((item, i) => children.push({ value: item, key: String(i), parent: node }));
    } else {
      for (const [key, child] of Object.entries(node.value)) {
        const bad = textFaultOf(key) !== null;
        // A bad name is the fault; what it holds is not looked at (its name could not be stored).
        children.push(bad ? { value: child, key, parent: node, isKey: true } : { value: child, key, parent: node });
      }
    }
    // Reversed onto the stack, so they come off in document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return faults;
}

/** A provider's text answer made storable: U+0000 removed, a lone surrogate made U+FFFD. */
export function storableProviderText(text: string): string {
  return text.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\uFFFD'));
}

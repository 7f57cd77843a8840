// Reads the curl examples of a markdown file and the answers it shows for them (the convention is
// written at the top of examples.test.ts). Pure: no I/O, so its rules are easy to read and test.

export interface CodeBlock {
  /** The fence's info string: `sh`, `json`, `` (none), … */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  lines: string[];
  /** Whether a heading lies between the previous code block and this one. */
  headingBefore: boolean;
}

export interface ShownAnswer {
  status: number;
  /** The JSON shown, with `…` elisions (see parseShownJson), or undefined when only a status is shown. */
  body?: unknown;
}

export interface Example {
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as written (continuation lines joined). */
  command: string;
  answer?: ShownAnswer;
}

export interface SkippedBlock {
  file: string;
  line: number;
  reason: string;
}

export interface DocExamples {
  examples: Example[];
  skipped: SkippedBlock[];
  /** What breaks the convention: each is a test failure, naming file and line. */
  problems: string[];
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);
/** Fences that show a program's output, not commands to type (the `npm start` banner). */
const OUTPUT_LANGS = new Set(['text']);
const CURL_LINE = /^\s*(\$\s+)?curl\s/;
const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(\S*)(\s+#.*)?$/;
const STATUS_COMMENT = /^#\s*(\d{3})\b(.*)$/;
/** The port `npm start` serves on; the examples use it, and the test rewrites it to its stack's. */
export const DOCUMENTED_PORT = '8080';

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let open: { fence: string; indent: number; block: CodeBlock } | undefined;
  let headingBefore = false;
  lines.forEach((text, index) => {
    if (open) {
      if (text.trim() === open.fence) {
        blocks.push(open.block);
        open = undefined;
      } else {
        open.block.lines.push(text.slice(Math.min(open.indent, text.length - text.trimStart().length)));
      }
      return;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(text);
    if (fence) {
      open = { fence: fence[2]!, indent: fence[1]!.length, block: { lang: fence[3]!, line: index + 1, lines: [], headingBefore } };
      headingBefore = false;
    } else if (/^#{1,6}\s/.test(text)) {
      headingBefore = true;
    }
  });
  return blocks;
}

/** The examples of one markdown file, in document order. */
export function docExamples(file: string, markdown: string): DocExamples {
  const result: DocExamples = { examples: [], skipped: [], problems: [] };
  const blocks = codeBlocks(markdown);

  // Every curl command line must sit in a shell fence (run or marked `# not run:`) or an output fence.
  const inFence = new Set<number>();
  for (const block of blocks) {
    if (!SHELL_LANGS.has(block.lang) && !OUTPUT_LANGS.has(block.lang)) continue;
    for (let i = 0; i <= block.lines.length + 1; i++) inFence.add(block.line + i);
  }
  markdown.split('\n').forEach((text, index) => {
    if (CURL_LINE.test(text) && !inFence.has(index + 1)) {
      result.problems.push(`${file}:${index + 1}: a curl command outside a \`\`\`sh block, so no test runs it: put it in one`);
    }
  });

  blocks.forEach((block, index) => {
    if (!SHELL_LANGS.has(block.lang) || !block.lines.some((l) => CURL_LINE.test(l))) return;
    // What is wrong whatever the answer, checked in blocks not run too.
    for (const { line, text } of logicalLines(block)) {
      if (CURL_LINE.test(text)) report(result, file, line, commandProblems(text));
    }
    const firstLine = block.lines.find((l) => l.trim() !== '')?.trim() ?? '';
    const notRun = /^#\s*not run:\s*(.+)$/.exec(firstLine);
    if (notRun) {
      result.skipped.push({ file, line: block.line, reason: notRun[1]!.trim() });
      return;
    }
    const next = blocks[index + 1];
    const following = next && next.lang === 'json' && !next.headingBefore ? next : undefined;
    parseShellBlock(file, block, following, result);
  });
  return result;
}

function report(result: DocExamples, file: string, line: number, problems: string[]): void {
  for (const problem of problems) result.problems.push(`${file}:${line}: ${problem}`);
}

/** What makes a curl command wrong before it is even run: a mistake a reader would copy. */
export function commandProblems(command: string): string[] {
  const problems: string[] = [];
  // The address curl is sent to; a localhost address inside the JSON body (-d '…') is a webhook
  // receiver's, not the service's.
  const outsideBody = command.replace(/(\s(?:-d|--data\S*|--json)\s+)'[^']*'/g, '$1');
  for (const [, address, port] of outsideBody.matchAll(/(?:^|[\s"'])((?:http:\/\/)?localhost:(\d+))/g)) {
    if (port !== DOCUMENTED_PORT) problems.push(`${address}: the service's documented address is localhost:${DOCUMENTED_PORT}`);
  }
  if (/\s(-d|--data\S*|--json)\s/.test(command) && !/Content-Type:\s*application\/json/i.test(command) && !/\s--json\s/.test(command)) {
    problems.push('a JSON body (-d) without -H "Content-Type: application/json": the API answers 415');
  }
  return problems;
}

/** The block's lines with continuations (a trailing backslash) joined, each with its first line. */
function logicalLines(block: CodeBlock): { line: number; text: string }[] {
  const logical: { line: number; text: string }[] = [];
  let pending: { line: number; text: string } | undefined;
  block.lines.forEach((text, i) => {
    const lineNo = block.line + 1 + i;
    const joined = pending ? `${pending.text} ${text.trim()}` : text.trim();
    const start = pending?.line ?? lineNo;
    if (!text.trimStart().startsWith('#') && /\\\s*$/.test(text)) {
      pending = { line: start, text: joined.replace(/\\\s*$/, '').trimEnd() };
    } else {
      pending = undefined;
      if (joined !== '') logical.push({ line: start, text: joined });
    }
  });
  return logical;
}

function parseShellBlock(file: string, block: CodeBlock, followingJson: CodeBlock | undefined, out: DocExamples): void {
  const logical = logicalLines(block);
  const commands: { example: Example; comments: string[] }[] = [];
  for (const { line, text } of logical) {
    if (text.startsWith('#')) {
      const current = commands[commands.length - 1];
      if (current) current.comments.push(text);
      continue;
    }
    if (CURL_LINE.test(text)) {
      commands.push({ example: { file, line, command: text.replace(/^\$\s+/, '') }, comments: [] });
      continue;
    }
    const assignment = ASSIGNMENT.exec(text);
    // `KEY=sk_live_…   # from npm start`: a value the reader fills in; the test supplies it.
    if (assignment && assignment[2]!.includes('…')) continue;
    out.problems.push(
      `${file}:${line}: \`${text}\` is neither a curl command nor a placeholder assignment: the test cannot run it (mark the block \`# not run: <reason>\` if it must stay)`,
    );
  }

  commands.forEach(({ example, comments }, i) => {
    const status = comments.length > 0 ? STATUS_COMMENT.exec(comments[0]!) : null;
    if (!status) {
      out.problems.push(`${file}:${example.line}: the example shows no answer: add a \`# <status> {…}\` comment line after it`);
      return;
    }
    const shownText = [status[2]!, ...comments.slice(1).map((c) => c.replace(/^#/, ''))].join('\n');
    const inline = firstJsonValue(shownText);
    let body: unknown;
    try {
      if (inline !== undefined) body = parseShownJson(inline);
      else if (i === commands.length - 1 && followingJson) body = parseShownJson(followingJson.lines.join('\n'));
    } catch (error) {
      out.problems.push(`${file}:${example.line}: the answer shown cannot be read: ${(error as Error).message}`);
      return;
    }
    example.answer = { status: Number(status[1]), ...(body !== undefined && { body }) };
    out.examples.push(example);
  });
}

/** The first balanced `{…}` or `[…]` in text (strings respected), or undefined. */
export function firstJsonValue(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  throw new Error(`unbalanced JSON in "${text.slice(start, start + 60)}…"`);
}

/** Marks an elided part: a field or element the document leaves out, or a value it does not show. */
export const ELIDED = '…';

/**
 * JSON as the documentation shows it: a bare `…` where a value stands is any value; a bare `…`
 * among members or elements means "and more" (it becomes a `"…"` member or element, which the
 * matcher reads that way). Inside a string, `…` stands for any characters (`"gen_…"`).
 */
export function parseShownJson(text: string): unknown {
  let out = '';
  const containers: string[] = [];
  let inString = false;
  let lastSignificant = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') containers.push(c);
    else if (c === '}' || c === ']') containers.pop();
    if (c === ELIDED) {
      const inObject = containers[containers.length - 1] === '{';
      out += lastSignificant === ':' || !inObject ? `"${ELIDED}"` : `"${ELIDED}":"${ELIDED}"`;
      lastSignificant = '"';
      continue;
    }
    out += c;
    if (!/\s/.test(c)) lastSignificant = c;
  }
  return JSON.parse(out);
}

/** Where `actual` differs from what the document shows (`expected`, from parseShownJson). */
export function mismatches(expected: unknown, actual: unknown, at = '$'): string[] {
  if (typeof expected === 'string' && expected.includes(ELIDED)) {
    if (expected === ELIDED) return actual === undefined ? [`${at}: missing`] : [];
    const pattern = new RegExp(`^${expected.split(ELIDED).map(escapeRegExp).join('[\\s\\S]*')}$`);
    return typeof actual === 'string' && pattern.test(actual) ? [] : [`${at}: shown ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: shown an array, got ${JSON.stringify(actual)}`];
    const shown = expected.filter((e) => e !== ELIDED);
    const more = shown.length < expected.length;
    if (more ? actual.length < shown.length : actual.length !== shown.length) {
      return [`${at}: shown ${more ? 'at least ' : ''}${shown.length} elements, got ${actual.length}`];
    }
    return shown.flatMap((e, i) => mismatches(e, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: shown an object, got ${JSON.stringify(actual)}`];
    return Object.entries(expected)
      .filter(([key]) => key !== ELIDED)
      .flatMap(([key, value]) => (key in actual ? mismatches(value, (actual as Record<string, unknown>)[key], `${at}.${key}`) : [`${at}.${key}: missing`]));
  }
  return Object.is(expected, actual) ? [] : [`${at}: shown ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

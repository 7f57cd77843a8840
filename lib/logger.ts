// Structured JSON logs, one object per line. Callers pass ids and prefixes, never secrets.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(opts: { level?: LogLevel; base?: LogFields; write?: (line: string) => void } = {}): Logger {
  const min = rank[opts.level ?? 'info'];
  const base = opts.base ?? {};
  const write = opts.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (rank[level] < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }));
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ ...opts, base: { ...base, ...fields } }),
  };
}

/** A logger that drops everything, for tests that do not assert on logs. */
export const silentLogger: Logger = createLogger({ write: () => undefined });

export function describeError(err: unknown): LogFields {
  if (err instanceof Error) return { error: err.message, error_name: err.name, stack: err.stack };
  return { error: String(err) };
}

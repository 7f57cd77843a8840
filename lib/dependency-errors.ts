import { isGrpcServiceError } from '@temporalio/client';

// Which dependency, if any, an error says is unreachable: the API answers those with 503
// service_unavailable (decisions §2) instead of 500, because retrying later is the right move.
// Only outages count: a constraint violation, a bad query or a workflow that does not exist is a
// bug or an answer, and stays what it was.

export type Dependency = 'postgres' | 'temporal';

// Socket-level failures to reach the database host. pg hands them over as Node system errors
// (with a `syscall`), on connect or mid-query.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATEs that mean "the server is going away or not taking connections", not "your query is
// wrong": 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300
// too_many_connections, and class 08, connection exceptions.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

// pg's own errors carry no code, only these messages (knex prefixes a query's message with its SQL).
const PG_CONNECTION_MESSAGES = [
  /^timeout expired$/, // pg's connectionTimeoutMillis
  /Query read timeout$/, // pg's query_timeout
  /Connection terminated unexpectedly$/,
  /Connection terminated due to connection timeout$/,
  /Client has encountered a connection error and is not queryable$/,
];

// gRPC status codes (a stable part of the gRPC spec; @grpc/grpc-js is not a direct dependency).
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

export function classifyDependencyError(err: unknown): Dependency | undefined {
  if (isTemporalOutage(err)) return 'temporal';
  if (isPostgresOutage(err)) return 'postgres';
  return undefined;
}

/** A gRPC UNAVAILABLE or DEADLINE_EXCEEDED, thrown as is or as the cause of the client's ServiceError. */
function isTemporalOutage(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (isGrpcServiceError(e) && (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED)) return true;
  }
  return false;
}

function isPostgresOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // knex gave up waiting for a pooled connection ("Knex: Timeout acquiring a connection").
  if (err.name === 'KnexTimeoutError') return true;
  const { code, syscall } = err as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // The AWS SDK (S3 storage) throws the same system errors with its `$metadata`: not the database.
    if (NETWORK_CODES.has(code) && typeof syscall === 'string' && !('$metadata' in err)) return true;
    // A Unix-socket DATABASE_URL (the embedded stack's) whose server is down: the socket file is gone.
    // Only on connect: ENOENT anywhere else is a missing file, not an outage.
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  return PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(err.message));
}

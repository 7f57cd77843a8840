import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { ApiError, type ErrorDetail } from '../errors';

// The one ajv instance. Every schema is compiled once, at import time.
const ajv = new Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: false });
addFormats(ajv);

/**
 * `maxDecimals: n`: a number written with at most n decimal places. JSON numbers are binary
 * doubles, so `multipleOf: 0.01` refuses amounts like 19.99 (19.99 / 0.01 is 1998.9999999999998);
 * this looks at the shortest decimal that reads back as the same double, which is what was sent.
 */
ajv.addKeyword({
  keyword: 'maxDecimals',
  type: 'number',
  schemaType: 'number',
  error: { message: (cxt) => `must have at most ${String(cxt.schema)} decimal places` },
  validate: (places: number, data: number) => hasAtMostDecimals(data, places),
});

export function hasAtMostDecimals(value: number, places: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value)) return true;
  // Exponent notation appears for tiny fractions (1e-7) only: those have more places than any cap here.
  const written = String(Math.abs(value));
  const match = /^\d+\.(\d+)$/.exec(written);
  return match !== null && match[1]!.length <= places;
}

function paramOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const child =
    error.keyword === 'required'
      ? (error.params as { missingProperty: string }).missingProperty
      : error.keyword === 'additionalProperties'
        ? (error.params as { additionalProperty: string }).additionalProperty
        : undefined;
  return [path, child].filter(Boolean).join('.') || 'body';
}

function messageOf(error: ErrorObject, param: string): string {
  switch (error.keyword) {
    case 'required':
      return `Missing required parameter: ${param}.`;
    case 'additionalProperties':
      return `Received unknown parameter: ${param}.`;
    case 'enum':
      return `Invalid ${param}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}.`;
    default:
      return `Invalid ${param}: ${error.message ?? 'is not valid'}.`;
  }
}

/** A parser of one request shape, carrying the schema it was compiled from (the OpenAPI document prints that very object). */
export type Validator<T> = ((data: unknown) => T) & { readonly schema: object };

/**
 * Compiles a schema into a parser that returns `T` or throws 400 validation_failed naming the
 * first bad field. (ajv's JSONSchemaType would force `nullable` onto optional fields, accepting
 * null where the contract does not, so the schema and `T` are kept side by side instead.)
 */
export function compileValidator<T>(schema: object): Validator<T> {
  const validate = ajv.compile<T>(schema);
  const parse = (data: unknown): T => {
    if (validate(data)) return data;
    const details: ErrorDetail[] = (validate.errors ?? []).map((error) => {
      const param = paramOf(error);
      return { param, message: messageOf(error, param) };
    });
    const first = details[0] ?? { param: 'body', message: 'The request body is not valid.' };
    throw new ApiError('validation_failed', first.message, { param: first.param, details });
  };
  return Object.assign(parse, { schema });
}

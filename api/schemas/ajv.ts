import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { ApiError, type ErrorDetail } from '../errors';

// The one ajv instance. Every schema is compiled once, at import time.
const ajv = new Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: false });
addFormats(ajv);

function paramOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const child =
    error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty
    : error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty
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

/**
 * Compiles a schema into a parser that returns `T` or throws 400 validation_failed naming the
 * first bad field. (ajv's JSONSchemaType would force `nullable` onto optional fields, accepting
 * null where the contract does not, so the schema and `T` are kept side by side instead.)
 */
export function compileValidator<T>(schema: object): (data: unknown) => T {
  const validate = ajv.compile<T>(schema);
  return (data: unknown): T => {
    if (validate(data)) return data;
    const details: ErrorDetail[] = (validate.errors ?? []).map((error) => {
      const param = paramOf(error);
      return { param, message: messageOf(error, param) };
    });
    const first = details[0] ?? { param: 'body', message: 'The request body is not valid.' };
    throw new ApiError('validation_failed', first.message, { param: first.param, details });
  };
}

import { ROLES, type Role } from '../../domain/access';
import { compileValidator } from './ajv';

// /v1/users bodies (decisions §3). Whether the caller may grant a role is the route's rule, not
// the schema's: it depends on who calls.

/** RFC 5321's limit on a forward path; longer addresses cannot receive mail. */
const email = { type: 'string', format: 'email', minLength: 3, maxLength: 254 };
const name = { type: 'string', minLength: 1, maxLength: 200 };
const role = { type: 'string', enum: [...ROLES] };

export interface CreateUserRequest {
  email: string;
  role: Role;
  /** Shown in listings; defaults to the email address. */
  name?: string;
}

export const parseCreateUser = compileValidator<CreateUserRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: { email, role, name },
});

export interface UpdateUserRequest {
  role?: Role;
  name?: string;
}

export const parseUpdateUser = compileValidator<UpdateUserRequest>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { role, name },
});

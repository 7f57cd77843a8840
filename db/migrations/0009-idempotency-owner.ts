import type { Knex } from 'knex';

// Idempotency claims get an owner, and the operator gets keys of its own (decisions §9).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    // A random token per claim: completing, forgetting or releasing a key must name it, so a request
    // whose lock expired and whose key a retry took over cannot settle the retry's claim. A row
    // written without one (older code) belongs to nobody and can only be taken over.
    t.text('owner_token').notNullable().defaultTo(knex.raw('gen_random_uuid()::text'));
    // Whose key it is: an API key's (scoped to its organization and environment) or the operator's
    // (scoped to the organization it adjusts), so the two can never replay or refuse each other.
    t.text('caller').notNullable().defaultTo('api_key').checkIn(['api_key', 'operator']);
    // Null when the request creates no resource of its own (an operator credit adjustment).
    t.setNullable('resource_id');
  });
  await knex.raw(`ALTER TABLE idempotency_keys
                    DROP CONSTRAINT idempotency_keys_pkey,
                    ADD PRIMARY KEY (organization_id, environment, caller, key)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('idempotency_keys').where({ caller: 'operator' }).delete();
  await knex.raw(`ALTER TABLE idempotency_keys
                    DROP CONSTRAINT idempotency_keys_pkey,
                    ADD PRIMARY KEY (organization_id, environment, key)`);
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('owner_token');
    t.dropColumn('caller');
    t.dropNullable('resource_id');
  });
}

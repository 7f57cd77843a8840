import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { Db } from '../knex';

export interface UploadRow {
  id: string;
  organization_id: string;
  environment: Environment;
  api_key_id: string;
  storage_key: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  created_at: Date;
}

export type NewUpload = Omit<UploadRow, 'created_at'>;

export function createUploadsRepo(knex: Knex) {
  return {
    async create(upload: NewUpload, trx: Db = knex): Promise<UploadRow> {
      const [row] = await trx('uploads').insert(upload).returning('*');
      return row as UploadRow;
    },

    /** An upload of the owner's organization and environment only; another world's id reads as absent. */
    async find(id: string, owner: { organizationId: string; environment: Environment }, trx: Db = knex): Promise<UploadRow | undefined> {
      return trx('uploads').where({ id, organization_id: owner.organizationId, environment: owner.environment }).first();
    },
  };
}

export type UploadsRepo = ReturnType<typeof createUploadsRepo>;

import { createHash } from 'node:crypto';
import { CATALOG_DATA } from './catalog-data';

// The catalog's version, as a job's price snapshot records it (domain/pricing-snapshot.ts). The
// catalog is code (catalog-data.ts), loaded once per process, with no version field of its own: its
// version is a content hash of that data, so any edit (a price, a route, a limit) gives a new one
// and two processes running the same catalog report the same version. Kept apart from catalog.ts
// because it needs node:crypto and the workflow bundle must never import that.

/** The first 16 hex digits of the SHA-256 of the catalog data as JSON. */
export const CATALOG_VERSION = createHash('sha256').update(JSON.stringify(CATALOG_DATA)).digest('hex').slice(0, 16);

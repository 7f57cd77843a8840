import { resolveUsagePeriod } from '../../domain/usage-period';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentUsage, presentUsageCsv, usageCsvFilename } from '../presenters/usage';
import { ROUTES } from '../route-table';
import { parseUsageQuery } from '../schemas/usage';

export function registerUsageRoutes(router: AppRouter, deps: ApiDeps): void {
  // Usage of the key's organization in the key's environment: a test key sees its sandbox's
  // generations, which cost nothing.
  defineRoute(router, deps, ROUTES.getUsage, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseUsageQuery(ctx.query);
    const period = resolveUsagePeriod(query, deps.clock());
    if ('param' in period) throw new ApiError('validation_failed', period.message, { param: period.param, details: [period] });
    const groupBy = query.group_by ?? 'day';
    const rows = await deps.repos.usage.summarize({
      organizationId: principal.organizationId,
      environment: principal.environment,
      groupBy,
      ...period,
      ...(query.modality && { modality: query.modality }),
      ...(query.api_key && { apiKeyId: query.api_key }),
    });
    if (query.format === 'csv') {
      ctx.attachment(usageCsvFilename(groupBy, period));
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = presentUsageCsv(rows);
      return;
    }
    ctx.body = presentUsage(groupBy, period, rows);
  });
}

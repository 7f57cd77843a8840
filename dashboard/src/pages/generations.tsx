import { useEffect } from 'preact/hooks';
import { GENERATION_STATUSES, isTerminal } from '../../../domain/generation-status';
import { MODALITIES } from '../../../domain/modalities';
import type { Schemas } from '../api';
import { ErrorNotice, Spinner, useAsync } from '../components/async';
import { formatCredits, formatTime } from '../components/format';
import { StatusBadge } from '../components/status-badge';
import { unwrap } from '../../../clients/typescript/src/request.js';
import { href, navigate, type ViewProps } from '../router';
import { mayCall } from '../permissions';
import { useSession } from '../session-context';
import './generations.css';

// The organization's generations, newest first, a page at a time (GET /v1/generations). The
// filters the API takes (modality, status, model, API key), the page size and the page's position all live in the
// hash query, so a reload, a shared link or the Back button shows the same page. The API pages
// forward only (`starting_after`), so the hash keeps the trail of cursors that led here
// (`after=<id>,<id>`): Previous drops the last one.

type Generation = Schemas['Generation'];
type GenerationList = Schemas['GenerationList'];

const PAGE_SIZES = ['10', '25', '50', '100'];
const DEFAULT_PAGE_SIZE = '25';
const LIST_REFRESH_MS = 3000;

interface ListState {
  modality: string;
  status: string;
  model: string;
  /** An API key's id. */
  apiKey: string;
  limit: string;
  /** The cursors of the pages before this one; the last is this page's `starting_after`. */
  trail: string[];
}

function readState(query: URLSearchParams): ListState {
  const pick = (name: string, allowed: readonly string[], fallback = '') => {
    const value = query.get(name) ?? '';
    return allowed.includes(value) ? value : fallback;
  };
  return {
    modality: pick('modality', MODALITIES),
    status: pick('status', GENERATION_STATUSES),
    model: query.get('model') ?? '',
    apiKey: query.get('api_key') ?? '',
    // Any size the API accepts (1..100) works in a link; the select offers a few.
    limit: /^(100|[1-9][0-9]?)$/.test(query.get('limit') ?? '') ? (query.get('limit') as string) : DEFAULT_PAGE_SIZE,
    trail: (query.get('after') ?? '').split(',').filter(Boolean),
  };
}

const linkTo = (state: ListState) =>
  href('generations', {
    modality: state.modality,
    status: state.status,
    model: state.model,
    api_key: state.apiKey,
    limit: state.limit === DEFAULT_PAGE_SIZE ? undefined : state.limit,
    after: state.trail.join(','),
  });

/** What a generation cost so far: charged once finished, held while it runs. */
const creditsOf = (g: Generation) => (!isTerminal(g.status) ? `${formatCredits(g.reserved_credits)} held` : formatCredits(g.charged_credits));

/** The models (of the chosen modality) and the keys the filters offer; keys only to a key that may list them. */
function useFilterChoices(modality: string) {
  const { api, identity } = useSession();
  const models = useAsync(() => api.models.list(), [api]);
  const keys = useAsync(
    async () => (mayCall(identity, 'listApiKeys') ? (await unwrap<Schemas['ApiKeyList']>(api.api.GET('/v1/api-keys', { params: { query: { limit: '100' } } }))).data : [identity]),
    [api, identity],
  );
  return {
    models: (models.data?.data ?? []).filter((m) => !modality || m.modality === modality).map((m) => m.slug),
    keys: keys.data ?? [identity],
  };
}

export function Generations({ location }: ViewProps) {
  const { api } = useSession();
  const state = readState(location.query);
  const choices = useFilterChoices(state.modality);
  const startingAfter = state.trail.at(-1);
  const page = useAsync(
    () =>
      unwrap<GenerationList>(
        api.api.GET('/v1/generations', {
          params: {
            query: {
              limit: state.limit,
              ...(state.modality && { modality: state.modality as Generation['modality'] }),
              ...(state.status && { status: state.status as Generation['status'] }),
              ...(state.model && { model: state.model }),
              ...(state.apiKey && { api_key: state.apiKey }),
              ...(startingAfter && { starting_after: startingAfter }),
            },
          },
        }),
      ),
    [api, state.limit, state.modality, state.status, state.model, state.apiKey, startingAfter],
  );
  // A new filter starts again from the first page.
  const filter = (change: Partial<ListState>) => navigate(linkTo({ ...state, ...change, trail: [] }));
  const rows = page.data?.data ?? [];
  const last = rows.at(-1);
  // Rows still running are asked again every few seconds, so the page shows them finish.
  const unfinished = rows.some((g) => !isTerminal(g.status));
  useEffect(() => {
    if (!unfinished || page.loading) return;
    const timer = setTimeout(page.reload, LIST_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [unfinished, page.loading, page.reload]);

  return (
    <section class="generations">
      <h1>Generations</h1>
      <form class="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <div class="field">
          <label for="filter-modality">Modality</label>
          <select id="filter-modality" value={state.modality} onChange={(e) => filter({ modality: e.currentTarget.value })}>
            <option value="">All</option>
            {MODALITIES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={state.status} onChange={(e) => filter({ status: e.currentTarget.value })}>
            <option value="">All</option>
            {GENERATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-model">Model</label>
          <select id="filter-model" value={state.model} onChange={(e) => filter({ model: e.currentTarget.value })}>
            <option value="">All</option>
            {[...new Set([...choices.models, ...(state.model ? [state.model] : [])])].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-key">API key</label>
          <select id="filter-key" value={state.apiKey} onChange={(e) => filter({ apiKey: e.currentTarget.value })}>
            <option value="">All</option>
            {choices.keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
            {state.apiKey && !choices.keys.some((k) => k.id === state.apiKey) && <option value={state.apiKey}>{state.apiKey}</option>}
          </select>
        </div>
        <div class="field">
          <label for="filter-limit">Per page</label>
          <select id="filter-limit" value={state.limit} onChange={(e) => filter({ limit: e.currentTarget.value })}>
            {[...new Set([...PAGE_SIZES, state.limit])].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="btn btn-plain" onClick={page.reload} disabled={page.loading}>
          Refresh
        </button>
        <span class="generations-loading">{page.loading && <Spinner />}</span>
      </form>
      <ErrorNotice error={page.error} />
      <div class="table-wrap">
        <table class="generations-table" data-testid="generations" aria-busy={page.loading}>
          <thead>
            <tr>
              <th scope="col">Generation</th>
              <th scope="col">Status</th>
              <th scope="col">Model</th>
              <th scope="col">Modality</th>
              <th scope="col">Credits</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr key={g.id} data-generation-id={g.id}>
                <td>
                  <a class="mono" href={href(['generations', g.id])}>
                    {g.id}
                  </a>
                  <div class="muted small generations-prompt">{g.prompt}</div>
                </td>
                <td data-label="Status">
                  <StatusBadge status={g.status} />
                </td>
                <td data-label="Model">{g.model}</td>
                <td data-label="Modality">{g.modality}</td>
                <td data-label="Credits">{creditsOf(g)}</td>
                <td data-label="Created">
                  <time dateTime={g.created_at}>{formatTime(g.created_at)}</time>
                </td>
              </tr>
            ))}
            {page.data && rows.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {state.modality || state.status || state.model || state.apiKey
                    ? 'No generation matches these filters.'
                    : 'No generations yet. Make one on the Try it page or through the API.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Pages">
        <button type="button" class="btn btn-plain" disabled={state.trail.length === 0} onClick={() => navigate(linkTo({ ...state, trail: state.trail.slice(0, -1) }))}>
          ← Previous
        </button>
        <button
          type="button"
          class="btn btn-plain"
          disabled={!page.data?.has_more || !last}
          onClick={() => last && navigate(linkTo({ ...state, trail: [...state.trail, last.id] }))}
        >
          Next →
        </button>
        <span class="muted small generations-page">Page {state.trail.length + 1}</span>
      </nav>
    </section>
  );
}

import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ErrorNotice, Spinner, useAsync } from '../components/async';
import { ComparisonForm } from '../components/comparison-form';
import { formatCredits, formatTime } from '../components/format';
import { Pager, useCursor } from '../components/pagination';
import { mayCall } from '../permissions';
import { href, navigate, type ViewProps } from '../router';
import { useSession } from '../session-context';
import './comparisons.css';

// Comparisons (#/comparisons): the organization's comparisons a page at a time, newest first, and
// a "New comparison" form for keys that may create one (the API refuses the others anyway).

const PAGE_SIZE = 20;

export function Comparisons({ location }: ViewProps) {
  const { api, identity } = useSession();
  const cursor = useCursor();
  // The form's being open is in the address (#/comparisons?new=1), so a reload keeps it open.
  const creating = location.query.get('new') === '1';
  const page = useAsync(
    () =>
      unwrap<Schemas['ComparisonList']>(
        api.api.GET('/v1/comparisons', { params: { query: { limit: String(PAGE_SIZE), ...(cursor.startingAfter && { starting_after: cursor.startingAfter }) } } }),
      ),
    [api, cursor.startingAfter],
  );
  const mayCreate = mayCall(identity, 'createComparison');
  const rows = page.data?.data ?? [];

  return (
    <section>
      <div class="toolbar">
        <h1 class="grow">Comparisons</h1>
        {mayCreate && (
          <button
            type="button"
            class="btn btn-primary"
            aria-expanded={creating}
            aria-controls="new-comparison"
            onClick={() => navigate(href('comparisons', creating ? {} : { new: 1 }))}
          >
            {creating ? 'Close the form' : 'New comparison'}
          </button>
        )}
      </div>
      {mayCreate && creating && (
        <div id="new-comparison" class="card cmp-new" data-testid="new-comparison">
          <h2>New comparison</h2>
          <ComparisonForm onCreated={(c) => navigate(href(['comparisons', c.id]))} />
        </div>
      )}
      <ErrorNotice error={page.error} />
      {page.loading && !page.data && <Spinner />}
      {page.data && rows.length === 0 && <p class="muted">No comparisons yet.</p>}
      {rows.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Comparison</th>
                <th>Status</th>
                <th>Modality</th>
                <th>Models</th>
                <th>Prompt</th>
                <th>Charged</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={href(['comparisons', c.id])} class="mono">
                      {c.id}
                    </a>
                  </td>
                  <td class={`status-${c.status}`}>{c.status}</td>
                  <td>{c.modality}</td>
                  <td>{c.models.join(', ')}</td>
                  <td class="cmp-prompt">{c.prompt}</td>
                  <td>{formatCredits(c.charged_credits)}</td>
                  <td>{formatTime(c.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursor={cursor} hasMore={page.data.has_more} lastId={rows[rows.length - 1]?.id} />}
    </section>
  );
}

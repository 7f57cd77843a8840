import type { ComponentType } from 'preact';
import { SignIn } from './pages/sign-in';
import { Overview } from './pages/overview';
import { Generations } from './pages/generations';
import { GenerationDetail } from './pages/generation-detail';
import { TryIt } from './pages/try-it';
import { Comparisons } from './pages/comparisons';
import { ComparisonDetail } from './pages/comparison-detail';
import { ApiKeys } from './pages/api-keys';
import { Users } from './pages/users';
import { Webhooks } from './pages/webhooks';
import { WebhookDetail } from './pages/webhook-detail';
import { Events } from './pages/events';
import { mayCall, type RouteName } from './permissions';
import { href, useLocation, type ViewProps } from './router';
import { useSession, useSessionState } from './session-context';
import { Spinner } from './components/async';

// The shell: sign-in until a key is given, then the header (who is signed in, test mode), the
// navigation (only the views the key may open) and the view the hash names.

interface View {
  /** The first path segment; '' is the overview. */
  section: string;
  title: string;
  /** The route the list behind the view needs: no link when the key may not call it. */
  needs: RouteName;
  list: ComponentType<ViewProps>;
  /** The view of `#/<section>/<id>`, if the section has one. */
  detail?: ComponentType<ViewProps>;
}

const VIEWS: View[] = [
  { section: '', title: 'Overview', needs: 'getCurrentApiKey', list: Overview },
  { section: 'generations', title: 'Generations', needs: 'listGenerations', list: Generations, detail: GenerationDetail },
  { section: 'try', title: 'Try it', needs: 'listModels', list: TryIt, detail: TryIt },
  { section: 'comparisons', title: 'Comparisons', needs: 'listComparisons', list: Comparisons, detail: ComparisonDetail },
  { section: 'keys', title: 'API keys', needs: 'listApiKeys', list: ApiKeys },
  { section: 'users', title: 'Users', needs: 'listUsers', list: Users },
  { section: 'webhooks', title: 'Webhooks', needs: 'listWebhooks', list: Webhooks, detail: WebhookDetail },
  { section: 'events', title: 'Events', needs: 'listEvents', list: Events },
];

export function App() {
  const { state, signIn, provider } = useSessionState();
  if (state.kind === 'restoring') {
    return (
      <main class="centered">
        <Spinner label="Signing in…" />
      </main>
    );
  }
  if (state.kind === 'signed-out') return <SignIn signIn={signIn} notice={state.notice} />;
  return <>{provider(<Shell />)}</>;
}

function Shell() {
  const { identity, signOut } = useSession();
  const location = useLocation();
  const section = location.segments[0] ?? '';
  const views = VIEWS.filter((v) => mayCall(identity, v.needs));
  const view = VIEWS.find((v) => v.section === section);
  const allowed = view && views.includes(view);
  const Page = view && (location.segments.length > 1 && view.detail ? view.detail : view.list);
  const test = identity.environment === 'test';

  return (
    <div class={`shell ${test ? 'shell-test' : ''}`}>
      {test && (
        <div class="test-banner" role="note" data-testid="test-banner">
          Test mode: this key runs on the simulator and spends the sandbox, never the wallet.
        </div>
      )}
      <header class="topbar">
        <a class="brand" href={href('')}>
          Generation service
        </a>
        <div class="whoami" data-testid="whoami">
          <span title="Organization">{identity.organization.id}</span>
          <span class={`badge badge-${identity.environment}`}>{identity.environment}</span>
          <span class="badge" title="Role">
            {identity.role}
          </span>
          <span class="muted small" title="Scopes">
            {identity.scopes.length ? identity.scopes.join(', ') : 'all scopes'}
          </span>
          <span class="muted small" title="Key">
            {identity.name} ({identity.prefix}…)
          </span>
        </div>
        <button type="button" class="btn btn-plain" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav class="sidenav" aria-label="Sections">
        {views.map((v) => (
          <a key={v.section} href={href(v.section)} aria-current={v === view ? 'page' : undefined}>
            {v.title}
          </a>
        ))}
      </nav>
      <main class="content" id="main">
        {!view || !Page ? (
          <p>
            No such page. <a href={href('')}>Go to the overview.</a>
          </p>
        ) : !allowed ? (
          <p class="notice notice-error" role="alert">
            This key may not open {view.title}: it needs a higher role or another scope.
          </p>
        ) : (
          <Page location={location} />
        )}
      </main>
    </div>
  );
}

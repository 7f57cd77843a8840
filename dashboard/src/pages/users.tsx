import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function Users(_props: ViewProps) {
  return <h1>Users</h1>;
}

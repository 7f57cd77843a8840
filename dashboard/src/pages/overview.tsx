import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function Overview(_props: ViewProps) {
  return <h1>Overview</h1>;
}

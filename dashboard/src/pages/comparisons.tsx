import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function Comparisons(_props: ViewProps) {
  return <h1>Comparisons</h1>;
}

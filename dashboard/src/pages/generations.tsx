import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function Generations(_props: ViewProps) {
  return <h1>Generations</h1>;
}

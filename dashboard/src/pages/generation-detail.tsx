import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function GenerationDetail(_props: ViewProps) {
  return <h1>Generation</h1>;
}

import type { ViewProps } from '../router';

// SCAFFOLD: replaced by the view's implementation before this branch is merged.
export function ComparisonDetail(_props: ViewProps) {
  return <h1>Comparison</h1>;
}

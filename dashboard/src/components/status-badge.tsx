import type { Schemas } from '../api';

// A generation's status as a badge: the word itself (never colour alone), coloured by the theme.

export function StatusBadge({ status }: { status: Schemas['Generation']['status'] }) {
  return (
    <span class={`badge status-badge status-${status}`} data-status={status}>
      {status}
    </span>
  );
}

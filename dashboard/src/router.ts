import { useEffect, useState } from 'preact/hooks';

// Views are chosen by the URL's hash (#/generations/gen_123?status=failed): the server serves one
// page at /dashboard, and a reload or a shared link opens the same view. The key never goes here.

export interface Location {
  /** Path segments after `#/`, decoded: `#/generations/gen_1` is ['generations', 'gen_1']. */
  segments: string[];
  query: URLSearchParams;
}

/** What every view gets: where it is. */
export interface ViewProps {
  location: Location;
}

export function parseHash(hash: string): Location {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  return { segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** A link to a view: `href('generations', id)`, with optional query (empty values are left out). */
export function href(path: string | string[], query: Record<string, string | number | undefined> = {}): string {
  const segments = (Array.isArray(path) ? path : path.split('/')).filter(Boolean).map(encodeURIComponent);
  const search = new URLSearchParams(
    Object.entries(query)
      .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  const qs = search.toString();
  return `#/${segments.join('/')}${qs ? `?${qs}` : ''}`;
}

export const navigate = (to: string): void => {
  location.hash = to;
};

/** The current view's location, re-rendering on every hash change. */
export function useLocation(): Location {
  const [current, setCurrent] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setCurrent(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    // Effects run after paint: a hash changed between the first render and now had no listener.
    onChange();
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return current;
}

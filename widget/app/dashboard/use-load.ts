/**
 * One API read for a page: its answer, whether it failed, and a way to load it again (after an
 * action, a new filter, or "Try again"). While a new answer is on its way the one shown stays,
 * marked `busy` (a page turn keeps its controls and focus); only the latest read's answer is
 * shown, whatever order answers arrive in. A 401 never reaches the page: the app has returned to
 * the sign-in.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Result } from './api.ts';

export type Loaded<T> =
  { state: 'loading' } | { state: 'failed'; status: number } | { state: 'ok'; data: T; busy: boolean };

export function useLoad<T>(
  read: () => Promise<Result<T>>,
  deps: readonly unknown[],
): [Loaded<T>, () => Promise<void>] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const latest = useRef(0);
  const load = useCallback(read, deps);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setLoaded((was) => (was.state === 'ok' ? { ...was, busy: true } : { state: 'loading' }));
    const res = await load();
    if (mine !== latest.current) return;
    setLoaded(
      res.ok ? { state: 'ok', data: res.data, busy: false } : { state: 'failed', status: res.status },
    );
  }, [load]);
  useEffect(() => void reload(), [reload]);
  return [loaded, reload];
}

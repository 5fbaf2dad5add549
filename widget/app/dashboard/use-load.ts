/**
 * One API read for a page: its answer, whether it failed, and a way to load it again (after an
 * action, or "Try again"). A 401 never reaches the page: the app has returned to the sign-in.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Result } from './api.ts';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; status: number } | { state: 'ok'; data: T };

export function useLoad<T>(
  read: () => Promise<Result<T>>,
  deps: readonly unknown[],
): [Loaded<T>, () => Promise<void>] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const load = useCallback(read, deps);
  const reload = useCallback(async () => {
    const res = await load();
    setLoaded(res.ok ? { state: 'ok', data: res.data } : { state: 'failed', status: res.status });
  }, [load]);
  useEffect(() => {
    // What is shown stays until the new answer replaces it (a page turn keeps its controls).
    setLoaded((was) => (was.state === 'ok' ? was : { state: 'loading' }));
    void reload();
  }, [reload]);
  return [loaded, reload];
}

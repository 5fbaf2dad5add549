/**
 * A component of a chunk of its own, fetched after the first paint (STYLE.md: rarely used screens
 * load lazily): the saved cards, the bank's 3-D Secure step. `wanted`: the page may show it, so it
 * is fetched now, before the shopper asks; undefined until it is here (or when it cannot be
 * fetched: offline, the rest of the page still works).
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function useChunk<P>(
  load: () => Promise<ComponentType<P>>,
  wanted: boolean,
): ComponentType<P> | undefined {
  const [loaded, setLoaded] = useState<ComponentType<P>>();
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    load().then(
      (c) => live && setLoaded(() => c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return loaded;
}

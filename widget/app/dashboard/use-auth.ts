/**
 * Where the user stands: not known yet, signed out (with why, when a session ended), half signed
 * in (the second factor is next) or in. The server's session is the truth: the app asks it at
 * start and after each step, and any call answered 401 means it ended (api.ts).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, onSessionEnded } from './api.ts';
import type { SessionInfo } from './api-types.ts';

/** Why no one is signed in: not yet, a session that ended by itself, or the user's Sign out. */
export type SignedOutWhy = 'not-yet' | 'ended' | 'signed-out';

export type Auth =
  | { state: 'checking' }
  | { state: 'unreachable' }
  | { state: 'signed-out'; why: SignedOutWhy }
  | { state: 'second-factor' | 'in'; session: SessionInfo };

export function useAuth(): {
  auth: Auth;
  refresh: () => Promise<void>;
  /** False when the server could not be asked: the session may still be live, so nothing changes. */
  signOut: () => Promise<boolean>;
} {
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });

  const refresh = useCallback(async () => {
    const res = await api.session();
    if (res.ok) {
      const session = res.data;
      setAuth({ state: session.secondFactor === 'Verified' ? 'in' : 'second-factor', session });
    } else if (res.status === 401) {
      setAuth((was) => ({
        state: 'signed-out',
        why: was.state === 'in' || was.state === 'second-factor' ? 'ended' : 'not-yet',
      }));
    } else {
      setAuth({ state: 'unreachable' });
    }
  }, []);

  const signOut = useCallback(async () => {
    const res = await api.signOut();
    // A 401: the session had already ended, which is what was asked.
    if (!res.ok && res.status !== 401) return false;
    setAuth({ state: 'signed-out', why: 'signed-out' });
    return true;
  }, []);

  useEffect(() => {
    onSessionEnded(() =>
      setAuth((was) => (was.state === 'signed-out' ? was : { state: 'signed-out', why: 'ended' })),
    );
    void refresh();
  }, [refresh]);

  return { auth, refresh, signOut };
}

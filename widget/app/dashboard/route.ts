/**
 * The dashboard's pages and their addresses under `/dashboard` (one HTML; the History API moves
 * between them without a reload). `parseRoute` reads an address, `href` writes one, `navigate`
 * goes there and tells the app (`useRoute`).
 */
import { useEffect, useState } from 'preact/hooks';

export const ROOT = '/dashboard';

export type Route =
  | { page: 'sign-in' }
  | { page: 'forgot-password' }
  | { page: 'second-factor' }
  | { page: 'overview' }
  | { page: 'payments'; query: URLSearchParams }
  | { page: 'payment'; id: string }
  | { page: 'payment-links' }
  | { page: 'settlement' }
  | { page: 'audit-log'; query: URLSearchParams }
  | { page: 'settings' }
  | { page: 'developers' }
  | { page: 'team' }
  // An invitation's link (`/dashboard/invite#iv_…`): its token is in the fragment, never sent.
  | { page: 'invite' }
  | { page: 'not-found' };

export type PageName = Route['page'];

/** The pages a user who has not finished signing in may see. */
export const PUBLIC_PAGES: readonly PageName[] = ['sign-in', 'forgot-password', 'second-factor', 'invite'];

/** Pages shown whoever is signed in or not (an invitation is for the person who opens it). */
export const ANYONE_PAGES: readonly PageName[] = ['invite'];

export function parseRoute(pathname: string, search: string): Route {
  const rest = pathname.startsWith(ROOT) ? pathname.slice(ROOT.length) : pathname;
  const parts = rest.split('/').filter(Boolean);
  const [first, second] = parts;
  if (parts.length === 0) return { page: 'overview' };
  if (parts.length === 1) {
    switch (first) {
      case 'sign-in':
      case 'forgot-password':
      case 'second-factor':
      case 'payment-links':
      case 'settlement':
      case 'settings':
      case 'developers':
      case 'team':
      case 'invite':
        return { page: first };
      case 'payments':
      case 'audit-log':
        return { page: first, query: new URLSearchParams(search) };
    }
  }
  if (parts.length === 2 && first === 'payments' && second) {
    try {
      return { page: 'payment', id: decodeURIComponent(second) };
    } catch {
      return { page: 'not-found' }; // a malformed escape (`%E0`): no such payment
    }
  }
  return { page: 'not-found' };
}

export const href = (path = '') => `${ROOT}${path}`;

const listeners = new Set<() => void>();

/**
 * Goes to an address of the dashboard (`replace`: without a new history entry, e.g. a redirect),
 * with `state` kept in its history entry (a list's earlier pages: pager.tsx).
 */
export function navigate(to: string, replace = false, state: unknown = null): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(state, '', to);
  else history.pushState(state, '', to);
  for (const listener of listeners) listener();
}

const current = () => ({
  route: parseRoute(location.pathname, location.search),
  at: location.pathname + location.search,
});

/** The route of the address bar, kept current on navigate and on the browser's back and forward. */
export function useRoute(): { route: Route; at: string } {
  const [state, setState] = useState(current);
  useEffect(() => {
    const update = () => setState(current());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return state;
}

/** A same-page link's click handled by the router (a modified click still opens a new tab). */
export function onLinkClick(event: MouseEvent): void {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return;
  }
  const anchor = (event.target as Element | null)?.closest('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.hash && url.pathname === location.pathname) return; // the skip link: the browser's own jump
  if (
    url.origin !== location.origin ||
    !url.pathname.startsWith(ROOT) ||
    url.pathname.startsWith(`${ROOT}/api/`)
  ) {
    return;
  }
  event.preventDefault();
  navigate(url.pathname + url.search);
}

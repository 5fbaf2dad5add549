/**
 * The hosted page's screens, and the one a loaded session asks for. A session that cannot be paid
 * shows why: its status ('expired', 'canceled'), or, when the Transaction Service gave a reason
 * (spec mode: WidgetSession.unavailableMessage), that reason in its own words.
 */
import type { PayBody, Receipt, WidgetSession } from '../../../shared/checkout/index.ts';

/** A notice instead of the form (components/screen-notice.tsx). */
export type NoticeScreen =
  | { kind: 'load-failed' | 'not-found' | 'expired' | 'canceled' }
  /** `ended`: the session's own status, which the host page hears as for a closed session. */
  | { kind: 'unavailable'; message: string; ended: 'expired' | 'canceled' };

export type Screen =
  | { kind: 'loading' | 'form' }
  | NoticeScreen
  | { kind: 'challenge'; challengeUrl: string; resultUrl: string; body: PayBody; wallet: string | undefined }
  | { kind: 'paid'; receipt: Receipt; redirectUrl: string | null; fresh: boolean };

/** The screen a loaded session asks for (a paid one without its receipt is shown as closed). */
export function screenOf(s: WidgetSession): Screen {
  if (s.status === 'open') return { kind: 'form' };
  if (s.status === 'paid' && s.receipt) {
    return { kind: 'paid', receipt: s.receipt, redirectUrl: s.redirectUrl ?? null, fresh: false };
  }
  const ended = s.status === 'canceled' ? 'canceled' : 'expired';
  if (s.unavailableMessage) return { kind: 'unavailable', message: s.unavailableMessage, ended };
  return { kind: ended };
}

/**
 * The `loaderror` reason of a page that loaded but can take no payment (embed-messages.ts
 * EmbedLoadError); null when it can.
 */
export function loadErrorOf(screen: Screen): 'expired' | 'canceled' | 'unavailable' | null {
  return screen.kind === 'expired' || screen.kind === 'canceled' || screen.kind === 'unavailable'
    ? screen.kind
    : null;
}

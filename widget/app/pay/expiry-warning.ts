/**
 * When the shopper is warned that the session is about to expire (issue 14 §7): two minutes before,
 * so there is time to finish — the typed card details are not kept past the end, and the shopper
 * hears so before, not after. Pure.
 */
export const WARN_BEFORE_MS = 2 * 60 * 1000;

/**
 * Milliseconds until the warning is due (0: now); null when there is nothing to warn of (no end,
 * an unreadable one, already over, or too far ahead for a timer).
 */
export function expiryWarningIn(expiresAt: string | null, now: number): number | null {
  const end = expiresAt ? Date.parse(expiresAt) : NaN;
  if (!Number.isFinite(end) || end <= now) return null;
  const wait = Math.max(0, end - WARN_BEFORE_MS - now);
  return wait < 2 ** 31 - 1 ? wait : null;
}

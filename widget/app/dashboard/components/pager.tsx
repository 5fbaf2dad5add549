/**
 * Pages of a list whose filters and cursor live in the address (Payments, Audit log): Next moves
 * after the last row shown, Previous back to the page before. The cursors of the pages before this
 * one travel in the history entry (`history.state`), not in the component: the browser's Back and
 * Forward bring each entry's own, and Previous stays right after them. A page opened from a
 * bookmark has none, and its Previous goes to the first page.
 */
import { filterQuery } from '../api.ts';
import type { AuditFilters, PaymentFilters } from '../api-types.ts';
import { useI18n } from '../i18n/context.ts';
import { href, navigate } from '../route.ts';
import { focusSoon } from './field.tsx';

type Filters = PaymentFilters | AuditFilters;

function trailOf(state: unknown): string[] {
  const trail = (state as { trail?: unknown } | null)?.trail;
  return Array.isArray(trail) && trail.every((c) => typeof c === 'string') ? trail : [];
}

export interface CursorPages<F extends Filters> {
  /** New filters: the first page of what they match. */
  apply: (next: F) => void;
  /** Previous and Next for the page shown, given the last row's cursor and whether more follow. */
  pager: { after: string | undefined; previous: () => void; next: (last: string | undefined) => void };
}

/** `path` under /dashboard; `titleId` is the page's heading, where focus goes as the pages turn. */
export function useCursorPages<F extends Filters>(
  path: string,
  filters: F,
  after: string | undefined,
  titleId: string,
): CursorPages<F> {
  const go = (next: F, cursor: string | undefined, trail: string[]) =>
    navigate(href(`${path}${filterQuery(next, cursor || undefined)}`), false, { trail });
  // The pager's buttons come and go with the pages: focus goes back to the page's start.
  const turn = (cursor: string | undefined, trail: string[]) => {
    go(filters, cursor, trail);
    focusSoon(`#${titleId}`);
  };
  return {
    apply: (next) => go(next, undefined, []),
    pager: {
      after,
      previous: () => {
        const trail = trailOf(history.state);
        turn(trail.at(-1), trail.slice(0, -1));
      },
      next: (last) => turn(last, [...trailOf(history.state), after ?? '']),
    },
  };
}

/** Previous (when not on the first page) and Next (when more follow). */
export function Pager({
  pager,
  hasMore,
  last,
}: {
  pager: CursorPages<Filters>['pager'];
  hasMore: boolean;
  last: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <nav class="pd-pager" aria-label={t('pages')}>
      {pager.after ? (
        <button type="button" class="pd-button" onClick={pager.previous}>
          {t('previous')}
        </button>
      ) : null}
      {hasMore ? (
        <button type="button" class="pd-button" onClick={() => pager.next(last)}>
          {t('next')}
        </button>
      ) : null}
    </nav>
  );
}

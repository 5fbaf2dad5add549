/**
 * The state every payment form keeps, and when it judges a field (checkout-design.md "Errors"):
 * - a field is judged when the shopper leaves it after typing in it — tabbing past an empty field
 *   says nothing;
 * - Pay judges every field, and focus goes to the first invalid one; from then on each field is
 *   judged as it changes, and the count of fields to correct (the form's summary, beside Pay)
 *   follows, down to none;
 * - the server's problems (a 400's field errors, a decline that concerns one field) show at their
 *   fields until the shopper changes those fields.
 */
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { focusFirstInvalid } from '../../ui/focus.ts';
import type { Problem, Problems } from '../card.ts';

type Flags<V> = Partial<Record<keyof V, boolean>>;

export interface ShownProblem {
  problem: Problem;
  /** Appeared as the shopper left the field: its region says it (else focus brings it). */
  announce: boolean;
}

export function useFormState<V extends object>(
  initial: V,
  check: (v: V) => Problems<V>,
  serverProblems: Problems<V>,
) {
  const [values, setValues] = useState<V>(initial);
  const [typed, setTyped] = useState<Flags<V>>({});
  const [left, setLeft] = useState<Flags<V>>({});
  /**
   * The fields changed since the server's problems (`of`) came: a problem of the server's goes once
   * its field is changed. New problems (a 400, a decline at a field) start with none changed — in
   * the same render, so focus can go to their field at once.
   */
  const [changed, setChanged] = useState<{ of: Problems<V>; keys: Flags<V> }>({
    of: serverProblems,
    keys: {},
  });
  const edited: Flags<V> = changed.of === serverProblems ? changed.keys : {};
  const [submitted, setSubmitted] = useState(false);
  const form: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);
  const problems = check(values);

  const shown = (k: keyof V): ShownProblem | undefined => {
    const own = problems[k];
    if (own && (submitted || left[k])) return { problem: own, announce: !submitted };
    const server = edited[k] ? undefined : serverProblems[k];
    return server ? { problem: server, announce: false } : undefined;
  };
  const keys = Object.keys(values) as (keyof V)[];

  return {
    values,
    form,
    shown,
    /**
     * How many fields are left to correct, by the form's own checks (a decline or the server's
     * problem is said at its field, with the words that say what to do).
     */
    count: () => keys.filter((k) => problems[k] !== undefined).length,
    submitted,
    set: <K extends keyof V>(k: K, value: V[K]) => {
      setValues((old) => ({ ...old, [k]: value }));
      setTyped((x) => ({ ...x, [k]: true }));
      setChanged((x) => ({
        of: serverProblems,
        keys: { ...(x.of === serverProblems ? x.keys : {}), [k]: true },
      }));
    },
    /**
     * Leaving a field judges it if the shopper typed in it — unless focus went to the form's Pay:
     * the press judges every field, and a message appearing above the button as it is pressed would
     * move it from under the pointer (the click lost). Where a press gives the button no focus
     * (Safari), the judgement waits a moment, so the press ends first.
     */
    leave: (k: keyof V) => (e: FocusEvent) => {
      if (!typed[k]) return;
      const to = e.relatedTarget as HTMLElement | null;
      if (to && to.getAttribute('type') === 'submit' && to.closest('form') === form.current) return;
      const judge = () => setLeft((x) => ({ ...x, [k]: true }));
      if (to) judge();
      else setTimeout(judge, 200);
    },
    /** On Pay: true when the form may be sent; else every problem shows and focus moves to the first. */
    validate(): boolean {
      setSubmitted(true);
      if (keys.some((k) => problems[k])) {
        focusFirstInvalid(form.current);
        return false;
      }
      return true;
    },
  };
}

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
import { useEffect, useRef, useState } from 'preact/hooks';
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
  /** Since the server answered: its problem on a field goes once the field is changed. */
  const [edited, setEdited] = useState<Flags<V>>({});
  const [submitted, setSubmitted] = useState(false);
  const form: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);
  const problems = check(values);
  // New problems from the server (a 400, a decline at a field) show until their fields change.
  useEffect(() => setEdited({}), [serverProblems]);

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
    /** How many fields show a problem now, once Pay was pressed or the server named some. */
    count: () => keys.filter((k) => shown(k) !== undefined).length,
    submitted,
    set: <K extends keyof V>(k: K, value: V[K]) => {
      setValues((old) => ({ ...old, [k]: value }));
      setTyped((x) => ({ ...x, [k]: true }));
      setEdited((x) => ({ ...x, [k]: true }));
    },
    /** Leaving a field judges it if the shopper typed in it. */
    leave: (k: keyof V) => () => {
      if (typed[k]) setLeft((x) => ({ ...x, [k]: true }));
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

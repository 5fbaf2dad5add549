/**
 * The state every payment form keeps: its values, which fields were left (errors show on blur) or
 * edited since the server answered (a server's field error hides once the shopper changes that
 * field), and a submit that shows every error and moves focus to the first.
 */
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Problems } from '../card.ts';
import { focusFirstInvalid } from './field.tsx';

type Flags<V> = Partial<Record<keyof V, boolean>>;

export function useFormState<V extends object>(
  initial: V,
  check: (v: V) => Problems<V>,
  serverProblems: Problems<V>,
  onInvalid: (count: number) => void,
) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Flags<V>>({});
  const [edited, setEdited] = useState<Flags<V>>({});
  const form: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);
  const problems = check(values);
  return {
    values,
    problems,
    form,
    /** The error to show on a field: its own once left, else the server's until it is edited. */
    shown: (k: keyof V) =>
      (touched[k] ? problems[k] : undefined) ?? (edited[k] ? undefined : serverProblems[k]),
    set: <K extends keyof V>(k: K, value: V[K]) => {
      setValues((old) => ({ ...old, [k]: value }));
      setEdited((e) => ({ ...e, [k]: true }));
    },
    blur: (k: keyof V) => () => setTouched((x) => ({ ...x, [k]: true })),
    /** On submit: true when the form may be sent; otherwise every error shows and focus moves. */
    validate(): boolean {
      const count = Object.values(problems).filter(Boolean).length;
      setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])) as Flags<V>);
      if (count > 0) {
        onInvalid(count);
        // After the re-render that marks the fields invalid.
        setTimeout(() => focusFirstInvalid(form.current), 0);
        return false;
      }
      setEdited({});
      return true;
    },
  };
}

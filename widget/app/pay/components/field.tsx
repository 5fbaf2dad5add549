/**
 * The payment page's field: the shared one (../../ui/field.tsx) with a problem in the page's
 * language, heard once (on leaving the field, or when focus comes to it).
 */
import { Field as UiField, type FieldProps } from '../../ui/field.tsx';
import type { Problem } from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import type { I18n } from '../i18n/index.ts';
import type { ShownProblem } from './form-state.ts';

export { focusFirstInvalid, focusSoon } from '../../ui/focus.ts';

export const problemText = (t: I18n['t'], p: Problem): string => ('text' in p ? p.text : t(p.key, p.vars));

export function Field({
  problem,
  ...props
}: Omit<FieldProps, 'prefix' | 'error' | 'announce'> & { problem?: ShownProblem | undefined }) {
  const { t } = useI18n();
  return (
    <UiField
      prefix="pf"
      {...props}
      error={problem ? problemText(t, problem.problem) : undefined}
      announce={problem?.announce ?? false}
    />
  );
}

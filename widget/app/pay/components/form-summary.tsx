/**
 * How many fields are left to correct, beside Pay once it was pressed; it counts down as fields are
 * fixed and goes at none. Not a live region: Pay moves focus to the first invalid field, whose
 * error is read with it, and a count said again at every keystroke would drown the field.
 */
import { useI18n } from '../i18n/context.ts';

export function FormSummary({ count }: { count: number }) {
  const { t } = useI18n();
  if (count === 0) return null;
  return (
    <p class="pf-summary" data-testid="form-summary">
      {count === 1 ? t('errSummaryOne') : t('errSummaryMany', { n: count })}
    </p>
  );
}

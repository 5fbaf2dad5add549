/**
 * zod issues as the catalogue's field errors (STYLE.md §5), so the widget shows each on its input.
 * A custom issue may name its own stable code in `params.code` (e.g. `invalid_return_url`).
 * Messages are the schemas' own and never quote the value (shared/checkout/fields.ts).
 */
import type { z } from 'zod';
import type { FieldError } from '../../shared/errors.ts';
import { PayframeError } from '../errors.ts';

/**
 * One error per field, the first the schema found: a value its own schema refuses is not then
 * also refused by the object's checks that read it ("5.001" is one `amount` error, not two).
 */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return firstPerField(
    error.issues.map((issue) => {
      const params = (issue as { params?: { code?: unknown } }).params;
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
      const path = issue.path.map(String).join('.');
      return {
        field: keys.length > 0 ? [path, keys.join(',')].filter(Boolean).join('.') : path,
        code: issue.code === 'custom' && typeof params?.code === 'string' ? params.code : issue.code,
        message: issue.message,
      };
    }),
  );
}

/** The first error of each field, in the order found. */
export function firstPerField(errors: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}

/** Parses `value` with `schema`, or throws 400 `validation_failed` with one error per field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new PayframeError('validation_failed', undefined, fieldErrors(parsed.error));
  return parsed.data;
}

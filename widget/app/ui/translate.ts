/**
 * The one translation function of the payment page and the dashboard: a dictionary's string with
 * its `{name}` placeholders filled, counts written in the language's own digits and grouping
 * (Arabic digits, "1 234" in French). No i18n library: each app's dictionaries are plain objects
 * whose keys are typed by its English one.
 */
export type Vars = Record<string, string | number>;

export function translator<K extends string>(
  lang: string,
  dict: Record<K, string>,
): (key: K, vars?: Vars) => string {
  const numbers = new Intl.NumberFormat(lang);
  return (key, vars) =>
    dict[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
      const v = vars?.[name];
      return v === undefined ? whole : typeof v === 'number' ? numbers.format(v) : v;
    });
}

/**
 * Small card-brand marks (issue 14 §3): inline SVG, a few hundred bytes for all of them, drawn as
 * simple shapes in each brand's colours (no logos copied in). Decorative: the brand's name is said
 * in text beside it or in the field's description.
 */
const MARKS: Record<string, preact.JSX.Element> = {
  visa: (
    <>
      <rect width="32" height="20" rx="3" fill="#1a1f71" />
      <path d="M6 7h20v2H6zM6 11h14v2H6z" fill="#f7b600" />
    </>
  ),
  mastercard: (
    <>
      <rect width="32" height="20" rx="3" fill="#000" />
      <circle cx="13" cy="10" r="6" fill="#eb001b" />
      <circle cx="19" cy="10" r="6" fill="#f79e1b" fill-opacity=".85" />
    </>
  ),
  'american-express': (
    <>
      <rect width="32" height="20" rx="3" fill="#2e77bc" />
      <path d="M5 6h22v3H5zM5 11h22v3H5z" fill="#fff" />
    </>
  ),
  discover: (
    <>
      <rect width="32" height="20" rx="3" fill="#fff" stroke="#767676" />
      <circle cx="20" cy="10" r="5" fill="#f48120" />
    </>
  ),
};

/** The brands shown before typing: those the form knows a mark for. */
export const MARKED_BRANDS = [
  ['visa', 'Visa'],
  ['mastercard', 'Mastercard'],
  ['american-express', 'American Express'],
  ['discover', 'Discover'],
] as const;

/** The mark's key for a brand as the gateway names it ('Visa', 'Mastercard'…); '' when it has none. */
export function markOf(brandName: string | null): string {
  return MARKED_BRANDS.find(([, name]) => name === brandName)?.[0] ?? '';
}

export function BrandMark({ type }: { type: string }) {
  const mark = MARKS[type];
  if (!mark) return null;
  return (
    <svg class="pf-brand" viewBox="0 0 32 20" width="32" height="20" aria-hidden="true" data-brand={type}>
      {mark}
    </svg>
  );
}

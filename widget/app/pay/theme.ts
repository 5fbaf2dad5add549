/**
 * The merchant's theme from `?theme=` (JSON): the rules of `Theme` in
 * shared/checkout/embed-messages.ts, checked by hand so zod stays out of the first paint. Anything
 * invalid is ignored as a whole; values only ever reach CSS custom properties (XSS-3).
 */
export interface Theme {
  primaryColor?: string;
  radius?: number;
  font?: string;
  mode?: 'light' | 'dark' | 'auto';
}

const KEYS = new Set(['primaryColor', 'radius', 'font', 'mode']);

export const parseTheme = (raw: string | null): Theme => checkTheme(raw) ?? {};

/** The theme `raw` asks for; {} when there is none; null when there is one and it is refused. */
export function checkTheme(raw: string | null): Theme | null {
  if (!raw) return {};
  if (raw.length > 1000) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (Object.keys(o).some((k) => !KEYS.has(k))) return null;
  const { primaryColor, radius, font, mode } = o;
  if (
    primaryColor !== undefined &&
    !(typeof primaryColor === 'string' && /^#[0-9a-fA-F]{6}$/.test(primaryColor))
  )
    return null;
  if (
    radius !== undefined &&
    !(Number.isInteger(radius) && (radius as number) >= 0 && (radius as number) <= 24)
  )
    return null;
  if (font !== undefined && !(typeof font === 'string' && /^[A-Za-z0-9 ,'-]{1,100}$/.test(font))) return null;
  if (mode !== undefined && mode !== 'light' && mode !== 'dark' && mode !== 'auto') return null;
  return o as Theme;
}

/** Relative luminance (WCAG 2.x) of a #rrggbb colour. */
function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => {
    const s = parseInt(hex.slice(i, i + 2), 16) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
}

/** The custom properties a theme sets; the button text is black or white, whichever contrasts more. */
export function themeProperties(theme: Theme): [string, string][] {
  const out: [string, string][] = [];
  if (theme.primaryColor) {
    out.push(['--pf-primary', theme.primaryColor]);
    out.push(['--pf-on-primary', luminance(theme.primaryColor) > 0.179 ? '#000000' : '#ffffff']);
  }
  if (theme.radius !== undefined) out.push(['--pf-radius', `${theme.radius}px`]);
  if (theme.font) out.push(['--pf-font', `${theme.font}, system-ui, sans-serif`]);
  return out;
}

/**
 * Sets the custom properties on the root, and `data-brand` there when a colour of the merchant's
 * replaces the default (the stylesheet's dark scheme then keeps it).
 */
export function applyTheme(theme: Theme, root: HTMLElement): void {
  for (const [name, value] of themeProperties(theme)) root.style.setProperty(name, value);
  if (theme.primaryColor) root.dataset['brand'] = '';
  if (theme.mode && theme.mode !== 'auto') root.dataset['mode'] = theme.mode;
}

/**
 * The branding as a style sheet, for the page the server renders (in a nonce'd `<style>`): the same
 * custom properties applyBranding sets once the app runs. Only checked values reach it (a #rrggbb
 * colour, a whole radius, a font name of letters, digits, spaces, commas, quotes and hyphens).
 */
export function brandingCss(b: Branding, theme: Theme): string {
  const props = themeProperties({ ...brandingTheme(b), ...theme });
  return props.length ? `:root{${props.map(([n, v]) => `${n}:${v}`).join(';')}}` : '';
}

/** Whether the branding replaces the default colour (the root then carries `data-brand`). */
export const branded = (b: Branding, theme: Theme): boolean =>
  Boolean({ ...brandingTheme(b), ...theme }.primaryColor);

/** The merchant's own branding (its Settings, issue 16), as the session carries it. */
export interface Branding {
  brandColor: string | null;
  cornerRadius: number | null;
}

/** The branding as a theme: only a #rrggbb colour and a whole radius of 0 to 24 pixels are taken. */
export function brandingTheme(b: Branding): Theme {
  const theme: Theme = {};
  if (b.brandColor && /^#[0-9a-fA-F]{6}$/.test(b.brandColor)) theme.primaryColor = b.brandColor;
  if (Number.isInteger(b.cornerRadius) && b.cornerRadius! >= 0 && b.cornerRadius! <= 24)
    theme.radius = b.cornerRadius!;
  return theme;
}

/**
 * The merchant's branding under the widget's `?theme=` (which the host page chose for this embed,
 * so it wins): set anew each time, so branding cleared since goes back to the default look.
 */
export function applyBranding(b: Branding, theme: Theme, root: HTMLElement): void {
  for (const p of ['--pf-primary', '--pf-on-primary', '--pf-radius']) root.style.removeProperty(p);
  delete root.dataset['brand'];
  applyTheme({ ...brandingTheme(b), ...theme }, root);
}

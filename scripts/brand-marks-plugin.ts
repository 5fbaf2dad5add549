/**
 * The card networks' marks for the payment page (widget/app/pay/components/brand-mark.tsx): the
 * "flat" SVGs of the `payment-icons` package (Mozilla Public License 2.0, docs/merchant-guide.md
 * "Card brand marks"), made smaller with SVGO at whole-number precision — drawn 32 px wide from a
 * 750-unit canvas, a unit is 0.04 px, so nothing visible changes — and emitted as files of the
 * build (`/assets/visa-<hash>.svg`), cached for good and outside the page's script.
 *
 * `import { MARK_URLS } from 'virtual:brand-marks'` gives each brand's URL (credit-card-type's
 * brand names as keys). The SSR build gets the same URLs (the names are content hashes) without
 * writing the files twice.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { optimize } from 'svgo';
import type { Plugin } from 'vite';

/** credit-card-type's brand → the file of payment-icons that draws it. */
export const BRAND_FILES = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  discover: 'discover',
  'diners-club': 'diners',
  jcb: 'jcb',
  unionpay: 'unionpay',
} as const;

const ID = 'virtual:brand-marks';
const RESOLVED = `\0${ID}`;

/** The optimized SVG of one brand's mark. */
export function brandMarkSvg(file: string): string {
  const dir = path.join(
    path.dirname(createRequire(import.meta.url).resolve('payment-icons/package.json')),
    'min/flat',
  );
  const source = fs.readFileSync(path.join(dir, `${file}.svg`), 'utf8');
  return optimize(source, {
    multipass: true,
    floatPrecision: 0,
    // The viewBox stays (the mark scales to its box); width and height go (the page sizes it).
    plugins: ['preset-default', 'removeDimensions'],
  }).data;
}

export function brandMarks(): Plugin {
  return {
    name: 'payframe-brand-marks',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      const entries = Object.entries(BRAND_FILES).map(([brand, file]) => {
        const svg = brandMarkSvg(file);
        if (this.meta.watchMode) {
          return `${JSON.stringify(brand)}: ${JSON.stringify(`data:image/svg+xml,${encodeURIComponent(svg)}`)}`;
        }
        const ref = this.emitFile({ type: 'asset', name: `${file}.svg`, source: svg });
        return `${JSON.stringify(brand)}: import.meta.ROLLUP_FILE_URL_${ref}`;
      });
      return `export const MARK_URLS = {\n${entries.join(',\n')}\n};\n`;
    },
  };
}

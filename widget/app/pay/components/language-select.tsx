/**
 * The hosted page's language selector (issue 17): a labelled native `<select>` (keyboard and
 * screen readers as the platform gives them), each language named in its own words, so a shopper
 * who cannot read the page's current language still finds theirs. Choosing one loads its chunk
 * and the page switches without a reload (app.tsx).
 */
import { PAGE_LANGS } from '../../../../shared/checkout/page-lang.ts';
import type { Lang } from '../i18n/index.ts';
import { nativeName, selectorLabel } from '../i18n/lang-names.ts';

interface Props {
  lang: Lang;
  onChange: (lang: Lang) => void;
}

export function LanguageSelect({ lang, onChange }: Props) {
  return (
    <div class="pf-lang" data-testid="language">
      <label for="pf-lang">{selectorLabel(lang)}</label>
      <select
        id="pf-lang"
        value={lang}
        onChange={(e) => {
          const next = PAGE_LANGS.find((l) => l === e.currentTarget.value);
          if (next && next !== lang) onChange(next);
        }}
      >
        {PAGE_LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {nativeName(l)}
          </option>
        ))}
      </select>
    </div>
  );
}

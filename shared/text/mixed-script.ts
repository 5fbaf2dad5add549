/**
 * Mixed-script words in a merchant's display name (issue 13 §4; Unicode TS #39 "Unicode Security
 * Mechanisms", §5.1 mixed-script detection and §5.2 "Highly Restrictive"): a shopper reads the
 * merchant's name to decide whom they pay, so one word may not mix scripts the way a spoof does —
 * `Pаypal` with a Cyrillic а, `Аpple` with a Cyrillic А, `Micrοsoft` with a Greek ο.
 *
 * A word (a run between spaces) passes when its resolved script set is not empty: each character's
 * Script_Extensions, Common and Inherited counting as every script, Han augmented with Japanese,
 * Korean and Chinese (and Hiragana, Katakana, Hangul and Bopomofo with theirs), intersected over the
 * word. As in Highly Restrictive, Latin may also join one of Japanese, Chinese or Korean
 * (`Tokyo東京`). Words of different scripts side by side are allowed (`Café Москва`): each is read
 * as itself. Digits of another script count as that script (`Shop٣` mixes). Whole-script
 * confusables (a name written entirely in Cyrillic letters that look Latin) are not this check's:
 * the hosted page shows the merchant's registered website host beside the name (ASCII, punycode
 * for an international domain), which the merchant cannot spell another way.
 *
 * No data tables: the JavaScript engine's Unicode property escapes (`\p{scx=…}`) are the source,
 * so the check follows the runtime's Unicode version. Used on the server only (merchant names are
 * set through the gateway), so it costs the widget nothing.
 */

/** ISO 15924 codes of the scripts in Unicode 15 (the Script property's values). */
const SCRIPTS = (
  'Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Bhks Bopo Brah Brai Bugi Buhd Cakm ' +
  'Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Geor ' +
  'Glag Gong Gonm Goth Gran Grek Gujr Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung Ital ' +
  'Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci ' +
  'Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand ' +
  'Narb Nbat Newa Nkoo Nshu Ogam Olck Orkh Orya Osge Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx ' +
  'Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sind Sinh Sogd Sogo Sora Soyo Sund ' +
  'Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Toto Ugar ' +
  'Vaii Wara Wcho Xpeo Xsux Yezi Yiii Zanb'
).split(' ');

/** The scripts this runtime knows, each with its Script_Extensions test (made on first use). */
let known: readonly (readonly [string, RegExp])[] | null = null;
function scriptTests(): readonly (readonly [string, RegExp])[] {
  known ??= SCRIPTS.flatMap((code) => {
    try {
      return [[code, new RegExp(`^\\p{scx=${code}}$`, 'u')] as const];
    } catch {
      return []; // a script newer than this runtime's Unicode
    }
  });
  return known;
}

const COMMON_OR_INHERITED = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;
/** UTS #39 §5.1: the scripts a writing system combines, added to each of its parts. */
const AUGMENT: Readonly<Record<string, readonly string[]>> = {
  Hani: ['Hanb', 'Jpan', 'Kore'],
  Hira: ['Jpan'],
  Kana: ['Jpan'],
  Hang: ['Kore'],
  Bopo: ['Hanb'],
};
const CJK_SETS = ['Jpan', 'Hanb', 'Kore'];

/** The augmented script set of one character, or null for Common/Inherited (any script). */
function scriptsOf(ch: string): Set<string> | null {
  if (COMMON_OR_INHERITED.test(ch)) return null;
  const set = new Set<string>();
  for (const [code, test] of scriptTests()) {
    if (!test.test(ch)) continue;
    set.add(code);
    for (const extra of AUGMENT[code] ?? []) set.add(extra);
  }
  return set.size > 0 ? set : null;
}

/** The resolved script set of `chars` (null: only Common/Inherited characters, any script). */
function resolved(chars: readonly string[]): Set<string> | null {
  let result: Set<string> | null = null;
  for (const ch of chars) {
    const scripts = scriptsOf(ch);
    if (scripts === null) continue;
    const next = new Set<string>();
    for (const s of result ?? scripts) if (scripts.has(s)) next.add(s);
    result = next;
    if (result.size === 0) return result;
  }
  return result;
}

/** True when one word of `value` mixes scripts beyond what UTS #39's Highly Restrictive allows. */
export function hasMixedScriptWord(value: string): boolean {
  for (const word of value.split(/\s+/u)) {
    const chars = Array.from(word);
    const all = resolved(chars);
    if (all === null || all.size > 0) continue;
    // Highly Restrictive: Latin beside Japanese, Chinese or Korean.
    const rest = resolved(chars.filter((ch) => !/^\p{scx=Latn}$/u.test(ch)));
    if (rest !== null && CJK_SETS.some((s) => rest.has(s))) continue;
    return true;
  }
  return false;
}

export const MIXED_SCRIPT_MESSAGE = 'must not mix scripts within a word (letters that look alike).';
export const MIXED_SCRIPT_CODE = 'mixed_script';

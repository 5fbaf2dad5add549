/**
 * A corpus of realistic order numbers, ids, times and contact numbers that are not card numbers, as
 * merchants put them in order numbers, custom values and addresses and as they appear in log
 * lines: the card-number detector must let every one pass (card-number-in-text.test.ts records its
 * false-positive rate on it). Generated from a seed, so the corpus is the same every run.
 */
import { randomDigits, seededRandom } from './card-spellings.ts';

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const TWITTER_EPOCH = 1288834974657n;
const DISCORD_EPOCH = 1420070400000n;
const FROM = Date.UTC(2011, 0, 1);
const TO = Date.UTC(2026, 11, 31);
const SNOWFLAKES_FROM = Date.UTC(2023, 0, 1);

export interface CorpusEntry {
  kind: string;
  text: string;
}

export function idCorpus(perKind = 250, seed = 13): CorpusEntry[] {
  const random = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chars = (alphabet: string, count: number) =>
    Array.from({ length: count }, () => pick([...alphabet])).join('');
  const d = (count: number) => randomDigits(random, count);
  const nz = (count: number) => String(int(1, 9)) + d(count - 1); // no leading zero
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const time = () => FROM + Math.floor(random() * (TO - FROM));
  const iso = (ms: number) => new Date(ms).toISOString();
  const uuid4 = () => {
    const h = chars(HEX, 32).split('');
    h[12] = '4';
    h[16] = pick(['8', '9', 'a', 'b']);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  const uuid7 = () => {
    const ts = time().toString(16).padStart(12, '0');
    const rest = `7${chars(HEX, 3)}${pick(['8', '9', 'a', 'b'])}${chars(HEX, 15)}`;
    return `${ts.slice(0, 8)}-${ts.slice(8)}-${rest.slice(0, 4)}-${rest.slice(4, 8)}-${rest.slice(8)}`;
  };
  // Ids made in the last years: 19 digits. (The 18-digit ids of 2014–2022 start with any digit, and
  // one in ten of those with a 16–19-digit brand prefix pass Luhn: docs/security.md "Text rules".)
  const recent = () => SNOWFLAKES_FROM + Math.floor(random() * (TO - SNOWFLAKES_FROM));
  const snowflake = (epoch: bigint) =>
    (((BigInt(recent()) - epoch) << 22n) | (BigInt(int(0, 1023)) << 12n) | BigInt(int(0, 4095))).toString();

  const kinds: Record<string, () => string> = {
    // Merchants' order numbers.
    'prefix-date-counter (RT-123456-123456789)': () => `RT-${d(6)}-${d(9)}`,
    'marketplace order (114-3612345-1234567)': () => `${d(3)}-${d(7)}-${d(7)}`,
    'auction order (12-34567-89012)': () => `${d(2)}-${d(5)}-${d(5)}`,
    'shop order (#10045)': () => `#${int(1001, 999999)}`,
    'numeric order id (13 digits)': () => nz(13),
    'dated order (ORD-20240517-000123)': () =>
      `ORD-${new Date(time()).toISOString().slice(0, 10).replaceAll('-', '')}-${d(6)}`,
    'store-register-receipt (0042-07-123456-78)': () => `${d(4)}-${d(2)}-${d(6)}-${d(2)}`,
    'app store order (GPA.3345-6789-0123-45678)': () => `GPA.33${d(2)}-${d(4)}-${d(4)}-${d(5)}`,
    // Invoices.
    'invoice (INV-2024-000123)': () => `INV-${int(2015, 2026)}-${d(6)}`,
    'invoice (INV/2024/05/000123)': () => `INV/${int(2015, 2026)}/${pad(int(1, 12))}/${d(6)}`,
    'invoice (2024-05-17/0042)': () => `${iso(time()).slice(0, 10)}/${d(4)}`,
    'invoice (F2024-00012345)': () => `F${int(2015, 2026)}-${d(8)}`,
    'customer + invoice (C-123456 INV 7890123)': () => `C-${d(6)} INV ${d(7)}`,
    // Times.
    'unix seconds': () => String(Math.floor(time() / 1000)),
    'unix milliseconds': () => String(time()),
    'unix microseconds': () => `${time()}${d(3)}`,
    'unix nanoseconds': () => `${time()}${d(6)}`,
    'ISO 8601 with milliseconds': () => iso(time()),
    'ISO 8601, space and microseconds': () => `${iso(time()).slice(0, 19).replace('T', ' ')}.${d(6)}`,
    'ISO 8601 basic (20240517T103000Z)': () => iso(time()).replace(/[-:]|\.\d+/g, ''),
    'compact timestamp (20240517103000123)': () => iso(time()).replace(/\D/g, ''),
    'ISO date': () => iso(time()).slice(0, 10),
    'European date (17.05.2024)': () => {
      const t = new Date(time());
      return `${pad(t.getUTCDate())}.${pad(t.getUTCMonth() + 1)}.${t.getUTCFullYear()}`;
    },
    'US date and time (05/17/2024 10:30)': () => {
      const t = new Date(time());
      return `${pad(t.getUTCMonth() + 1)}/${pad(t.getUTCDate())}/${t.getUTCFullYear()} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
    },
    'date range (2024-05-01 - 2024-05-31)': () => `${iso(time()).slice(0, 10)} - ${iso(time()).slice(0, 10)}`,
    'date range (30.05.2024 - 30.06.2024)': () => {
      const day = () => {
        const t = new Date(time());
        return `${pad(t.getUTCDate())}.${pad(t.getUTCMonth() + 1)}.${t.getUTCFullYear()}`;
      };
      return `${day()} - ${day()}`;
    },
    // Ids.
    'snowflake id of 2023–2026 (Twitter epoch)': () => snowflake(TWITTER_EPOCH),
    'snowflake id of 2023–2026 (Discord epoch)': () => snowflake(DISCORD_EPOCH),
    'UUID v4': uuid4,
    'UUID v4, upper case': () => uuid4().toUpperCase(),
    'UUID v4 without dashes': () => uuid4().replaceAll('-', ''),
    'UUID v7': uuid7,
    ULID: () => `01${chars(CROCKFORD, 24)}`,
    'object id (24 hex)': () => chars(HEX, 24),
    'SHA-256 digest (hex)': () => chars(HEX, 64),
    'prefixed API id (ch_…)': () => `ch_${chars(ALNUM, 24)}`,
    'request id (req-…)': () => `req-${chars(ALNUM, 12)}`,
    'numeric user id (10 digits)': () => nz(10),
    // Contact numbers and amounts, as typed into address and phone fields.
    'phone number (many countries)': () =>
      pick([
        () => `+1 ${nz(3)} ${d(3)} ${d(4)}`,
        () => `+44 20 ${d(4)} ${d(4)}`,
        () => `+49 15${d(2)} ${d(7)}`,
        () => `+49 (0) 30 ${d(8)}`,
        () => `+33 6 ${d(2)} ${d(2)} ${d(2)} ${d(2)}`,
        () => `+34 6${d(2)} ${d(3)} ${d(3)}`,
        () => `+39 3${d(2)} ${d(7)}`,
        () => `+55 11 9${d(4)}-${d(4)}`,
        () => `+56 9 ${d(4)} ${d(4)}`,
        () => `+57 3${d(2)} ${d(3)} ${d(4)}`,
        () => `+58 4${d(2)}-${d(3)}-${d(4)}`,
        () => `+60 1${d(1)}-${d(3)} ${d(4)}`,
        () => `+61 4${d(2)} ${d(3)} ${d(3)}`,
        () => `+62 8${d(2)}-${d(4)}-${d(4)}`,
        () => `+62 8${d(2)}${d(8)}`,
        () => `+63 9${d(2)} ${d(3)} ${d(4)}`,
        () => `+65 ${d(4)} ${d(4)}`,
        () => `+66 8${d(1)} ${d(3)} ${d(4)}`,
        () => `+81 90-${d(4)}-${d(4)}`,
        () => `+82 10-${d(4)}-${d(4)}`,
        () => `+86 1${d(2)} ${d(4)} ${d(4)}`,
        () => `+91 ${nz(5)} ${d(5)}`,
        () => `+7 9${d(2)} ${d(3)}-${d(2)}-${d(2)}`,
        () => `+852 ${d(4)} ${d(4)}`,
        () => `+971 5${d(1)} ${d(3)} ${d(4)}`,
        () => `00${int(30, 99)} ${d(3)} ${d(3)} ${d(4)}`,
      ])(),
    'amount (1234567.89)': () => `${int(1, 9999999)}.${d(2)}`,
    'street address with numbers': () =>
      `${int(1, 9999)} ${pick(['Main St', 'Rue de la Paix', 'Hauptstraße'])} ${int(1, 99)}, ${d(5)}`,
  };

  const out: CorpusEntry[] = [];
  for (const [kind, make] of Object.entries(kinds)) {
    for (let i = 0; i < perKind; i++) out.push({ kind, text: make() });
  }
  return out;
}

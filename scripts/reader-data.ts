// Sandbox card-reader data for GetCardDetailsFromEncryptedData (docs/test-cards.md "Card-reader data").
//
//   node --import tsx scripts/reader-data.ts --key <64 hex> --pan 4242424242424242 --exp 12/30 [--name "JANE DOE"]
//     prints the base64 blob a sandbox reader would send;
//   node --import tsx scripts/reader-data.ts --key <64 hex> --decrypt <blob>
//     prints what the gateway reads from it (masked number, expiry, brand; never the number).
import { parseArgs } from 'node:util';
import { normalizeCardNumber } from '../shared/card/card-number.ts';
import { parseExpiry } from '../shared/card/expiry.ts';
import { cardDetailsFromEncryptedData } from '../server/gateway/card-info.ts';
import { encryptReaderData } from '../server/gateway/card-reader.ts';

const USAGE =
  'usage: reader-data --key <64 hex> --pan <card number> --exp <MM/YY> [--name <name>]\n' +
  '       reader-data --key <64 hex> --decrypt <blob>\n';

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      pan: { type: 'string' },
      exp: { type: 'string' },
      name: { type: 'string' },
      decrypt: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help || !values.key) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.decrypt) {
    const detail = cardDetailsFromEncryptedData({ encryptedData: values.decrypt, readerKeyHex: values.key });
    process.stdout.write(`${JSON.stringify(detail)}\n`);
    return 0;
  }
  const expiry = values.exp ? parseExpiry(values.exp) : null;
  const pan = values.pan ? normalizeCardNumber(values.pan) : null;
  if (!pan || !expiry) {
    process.stderr.write(`A card number (--pan) and a valid --exp (MM/YY) are required.\n${USAGE}`);
    return 2;
  }
  const blob = encryptReaderData(values.key, {
    pan,
    expMonth: expiry.month,
    expYear: expiry.year,
    ...(values.name ? { name: values.name } : {}),
  });
  process.stdout.write(`${blob}\n`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`reader-data: ${(err as Error).message}\n`);
  process.exitCode = 1;
}

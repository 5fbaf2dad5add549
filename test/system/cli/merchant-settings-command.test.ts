/**
 * `payframe merchant update --return-mode … --name-on-card|--no-name-on-card` (issue 14 §9, §3),
 * the branding, the footer links, the postal code and the receipt e-mail, through the real command on a PGlite data directory: the defaults a new merchant has, each
 * setting changed alone, and values the command refuses before touching the database.
 */
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite.ts';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

const payframe = (args: string[], env: Record<string, string>) => runPayframe(args, env);

describe('payframe merchant update: checkout settings', () => {
  it(
    'sets the return mode and the name on card, each alone, and refuses what it does not know',
    {
      timeout: 300_000,
    },
    async () => {
      const env = { DATA_DIR: tempDir() };
      const created = JSON.parse(
        (await payframe(['merchant', 'create', '--name', 'Settings Shop', '--json'], env)).stdout,
      );
      const stored = async () => {
        const db = await openPglite(env.DATA_DIR);
        try {
          const { rows } = await db.query<{ mode: string; name: boolean }>(
            'select return_mode as mode, name_on_card_required as name from merchants where id = $1',
            [created.merchantId],
          );
          return rows[0];
        } finally {
          await db.close();
        }
      };
      expect(await stored()).toEqual({ mode: 'immediate', name: false });

      const update = (...options: string[]) =>
        payframe(['merchant', 'update', '--merchant', created.merchantId, ...options, '--json'], env);
      const confirmation = await update('--return-mode', 'confirmation');
      expect(confirmation.code, confirmation.stdout + confirmation.stderr).toBe(0);
      expect(JSON.parse(confirmation.stdout)).toMatchObject({
        returnMode: 'confirmation',
        nameOnCardRequired: false,
      });
      const named = await update('--name-on-card');
      expect(JSON.parse(named.stdout)).toMatchObject({
        returnMode: 'confirmation',
        nameOnCardRequired: true,
      });
      expect(await stored()).toEqual({ mode: 'confirmation', name: true });

      // The branding (issue 16), as the dashboard's Settings set it; "" clears it.
      const branded = await update('--brand-color', '#0A7C4B', '--corner-radius', '12');
      expect(JSON.parse(branded.stdout)).toMatchObject({ brandColor: '#0a7c4b', cornerRadius: 12 });
      const badColor = await update('--brand-color', 'green');
      expect(badColor.code).not.toBe(0);
      expect(JSON.parse(badColor.stdout).error.message).toContain(
        'brandColor must be a colour written #RRGGBB.',
      );
      const cleared = await update('--brand-color', '', '--corner-radius', '');
      expect(JSON.parse(cleared.stdout)).toMatchObject({ brandColor: null, cornerRadius: null });

      // The payment page's footer links, the postal code and the receipt e-mail.
      expect(JSON.parse(cleared.stdout)).toMatchObject({
        termsUrl: null,
        privacyUrl: null,
        postalCodeRequired: false,
        receiptEmail: true,
      });
      const linked = await update(
        '--terms-url',
        'https://shop.example/terms',
        '--privacy-url',
        'https://shop.example/privacy',
        '--postal-code',
        '--no-receipt-email',
      );
      expect(linked.code, linked.stdout + linked.stderr).toBe(0);
      expect(JSON.parse(linked.stdout)).toMatchObject({
        termsUrl: 'https://shop.example/terms',
        privacyUrl: 'https://shop.example/privacy',
        postalCodeRequired: true,
        receiptEmail: false,
      });
      const httpTerms = await update('--terms-url', 'http://shop.example/terms');
      expect(httpTerms.code).not.toBe(0);
      expect(JSON.parse(httpTerms.stdout).error.message).toContain('termsUrl must be an https URL.');
      const unlinked = await update(
        '--terms-url',
        '',
        '--privacy-url',
        '',
        '--no-postal-code',
        '--receipt-email',
      );
      expect(JSON.parse(unlinked.stdout)).toMatchObject({
        termsUrl: null,
        privacyUrl: null,
        postalCodeRequired: false,
        receiptEmail: true,
      });

      const back = await update('--return-mode', 'immediate', '--no-name-on-card');
      expect(JSON.parse(back.stdout)).toMatchObject({ returnMode: 'immediate', nameOnCardRequired: false });

      for (const bad of [
        ['--return-mode', 'countdown'],
        ['--name-on-card', '--no-name-on-card'],
        ['--postal-code', '--no-postal-code'],
        ['--receipt-email', '--no-receipt-email'],
        ['--corner-radius', 'round'],
      ]) {
        const refused = await update(...bad);
        expect(refused.code).toBe(2);
        expect(JSON.parse(refused.stdout).error.code).toBe('invalid_arguments');
      }
      expect(await stored()).toEqual({ mode: 'immediate', name: false });
    },
  );
});

/** Swedish (du): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const sv: ShopperTexts = {
  otpSms:
    '{code} är din Payframe-kod för att använda dina sparade kort hos {merchant}. Den går ut om {minutes} minuter. Dela den aldrig med någon.',
  otpSubject: 'Din Payframe-kod: {code}',
  otpEmail:
    'Din kod för att använda dina sparade kort hos {merchant} är {code}.\n\n' +
    'Den går ut om {minutes} minuter (kl. {until}) och fungerar en gång. ' +
    'Payframe ber dig aldrig om den per telefon eller e-post. Om du inte har begärt koden kan du ignorera det här meddelandet.',
  otpMerchant: 'butiken',
  tdsBank: 'Payframes testbank',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Payframes testbank — verifiera betalningen',
  tdsChallengeHeading: 'Verifiera betalningen',
  tdsIntro:
    'Det här är en testkontroll av 3-D Secure. Ingen riktig bank är inblandad och inga pengar flyttas.',
  tdsMerchant: 'Säljare',
  tdsAmount: 'Belopp',
  tdsChoose: 'Välj resultatet av den här testverifieringen. Den går ut kl. {time}.',
  tdsAuthenticate: 'Autentisera',
  tdsFail: 'Simulera misslyckande',
  tdsFailedHeading: 'Verifieringen misslyckades',
  tdsFailedBody:
    'Du valde att låta verifieringen misslyckas. Betalningen går inte igenom med den här kontrollen; du kan gå tillbaka till betalsidan och försöka igen.',
  tdsVerifiedHeading: 'Betalningen är verifierad',
  tdsVerifiedBody: 'Betalningen har verifierats. Gå tillbaka till betalsidan för att slutföra betalningen.',
  tdsUsed: 'Det här resultatet har redan använts för en betalning.',
  tdsDevHeading: 'Värden för utvecklare',
  tdsDevNote: 'Skicka dem med ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'DS-transaktions-id',
  tds400Heading: 'Välj ett resultat',
  tds400Body: 'Välj ”Autentisera” eller ”Simulera misslyckande” för att fortsätta.',
  tds403Heading: 'Begäran nekades',
  tds403Body: 'Den här verifieringen kan bara besvaras från sin egen sida.',
  tds404Heading: 'Verifieringen hittades inte',
  tds404Body: 'Den här verifieringen finns inte. Gå tillbaka till betalsidan och försök igen.',
  tds410Heading: 'Verifieringen har gått ut',
  tds410Body:
    'Tiden för att besvara verifieringen har gått ut. Gå tillbaka till betalsidan och börja om betalningen.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Ditt kvitto från {merchant}',
  receiptIntro: 'Tack för din betalning till {merchant}. Här är ditt kvitto.',
  receiptMerchant: 'Handlare',
  receiptOrder: 'Beställning',
  receiptAmount: 'Belopp',
  receiptPaidWith: 'Betalt med',
  receiptTransaction: 'Transaktions-ID',
  receiptDate: 'Datum',
  receiptCard: '{brand} som slutar på {last4}',
  receiptCardNoBrand: 'Kort som slutar på {last4}',
  receiptChecking: 'Lönekonto som slutar på {last4}',
  receiptSavings: 'Sparkonto som slutar på {last4}',
  receiptBusinessChecking: 'Företagskonto som slutar på {last4}',
  receiptBankAccount: 'Bankkonto som slutar på {last4}',
  receiptFooter: 'Spara det här mejlet. Har du frågor om din beställning kontaktar du {merchant}.',
};

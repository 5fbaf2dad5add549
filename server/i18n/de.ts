/** German (Sie): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const de: ShopperTexts = {
  otpSms:
    '{code} ist Ihr Payframe-Code, um Ihre gespeicherten Karten bei {merchant} zu verwenden. Er läuft in {minutes} Minuten ab. Geben Sie ihn niemals weiter.',
  otpSubject: 'Ihr Payframe-Code: {code}',
  otpEmail:
    'Ihr Code, um Ihre gespeicherten Karten bei {merchant} zu verwenden, lautet {code}.\n\n' +
    'Er läuft in {minutes} Minuten ab (um {until}) und gilt nur einmal. ' +
    'Payframe wird Sie niemals per Telefon oder E-Mail danach fragen. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
  // Dative: it fills "bei …".
  otpMerchant: 'dem Händler',
  tdsBank: 'Payframe-Testbank',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Payframe-Testbank — Zahlung bestätigen',
  tdsChallengeHeading: 'Zahlung bestätigen',
  tdsIntro:
    'Dies ist eine 3-D-Secure-Testprüfung. Es ist keine echte Bank beteiligt, und es fließt kein Geld.',
  tdsMerchant: 'Händler',
  tdsAmount: 'Betrag',
  tdsChoose: 'Wählen Sie das Ergebnis dieser Testprüfung. Sie läuft um {time} ab.',
  tdsAuthenticate: 'Authentifizieren',
  tdsFail: 'Fehlschlag simulieren',
  tdsFailedHeading: 'Bestätigung fehlgeschlagen',
  tdsFailedBody:
    'Sie haben einen Fehlschlag der Bestätigung gewählt. Mit dieser Prüfung geht die Zahlung nicht durch; Sie können zur Zahlungsseite zurückkehren und es erneut versuchen.',
  tdsVerifiedHeading: 'Zahlung bestätigt',
  tdsVerifiedBody:
    'Die Zahlung wurde bestätigt. Kehren Sie zur Zahlungsseite zurück, um die Zahlung abzuschließen.',
  tdsUsed: 'Dieses Ergebnis wurde bereits für eine Zahlung verwendet.',
  tdsDevHeading: 'Werte für Entwickler',
  tdsDevNote: 'Senden Sie diese mit ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'DS-Transaktions-ID',
  tds400Heading: 'Ergebnis wählen',
  tds400Body: 'Wählen Sie „Authentifizieren“ oder „Fehlschlag simulieren“, um fortzufahren.',
  tds403Heading: 'Anfrage abgelehnt',
  tds403Body: 'Diese Prüfung kann nur auf ihrer eigenen Seite beantwortet werden.',
  tds404Heading: 'Prüfung nicht gefunden',
  tds404Body: 'Diese Prüfung gibt es nicht. Kehren Sie zur Zahlungsseite zurück und versuchen Sie es erneut.',
  tds410Heading: 'Diese Prüfung ist abgelaufen',
  tds410Body:
    'Die Zeit für diese Prüfung ist abgelaufen. Kehren Sie zur Zahlungsseite zurück und starten Sie die Zahlung erneut.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Ihre Quittung von {merchant}',
  receiptIntro: 'Vielen Dank für Ihre Zahlung an {merchant}. Hier ist Ihre Quittung.',
  receiptMerchant: 'Händler',
  receiptOrder: 'Bestellung',
  receiptAmount: 'Betrag',
  receiptPaidWith: 'Bezahlt mit',
  receiptTransaction: 'Transaktions-ID',
  receiptDate: 'Datum',
  receiptCard: '{brand} mit Endziffern {last4}',
  receiptCardNoBrand: 'Karte mit Endziffern {last4}',
  receiptChecking: 'Girokonto mit Endziffern {last4}',
  receiptSavings: 'Sparkonto mit Endziffern {last4}',
  receiptBusinessChecking: 'Geschäftskonto mit Endziffern {last4}',
  receiptBankAccount: 'Bankkonto mit Endziffern {last4}',
  receiptFooter:
    'Bewahren Sie diese E-Mail für Ihre Unterlagen auf. Bei Fragen zu Ihrer Bestellung wenden Sie sich an {merchant}.',
};

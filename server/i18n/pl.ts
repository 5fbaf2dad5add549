/** Polish (ty): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const pl: ShopperTexts = {
  // The merchant in parentheses, in the nominative (a name is not declined; the fallback reads right);
  // "min" so one form fits any number of minutes.
  otpSms:
    'Twój kod Payframe do zapisanych kart ({merchant}): {code}. Wygasa za {minutes} min. Nie podawaj go nikomu.',
  otpSubject: 'Twój kod Payframe: {code}',
  otpEmail:
    'Twój kod do zapisanych kart ({merchant}) to {code}.\n\n' +
    'Kod wygasa za {minutes} min (o {until}) i działa tylko raz. ' +
    'Payframe nigdy nie poprosi o niego telefonicznie ani e-mailem. Jeśli ten kod nie był przez Ciebie zamawiany, zignoruj tę wiadomość.',
  otpMerchant: 'sklep',
  tdsBank: 'Bank testowy Payframe',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Bank testowy Payframe — potwierdź tę płatność',
  tdsChallengeHeading: 'Potwierdź tę płatność',
  tdsIntro:
    'To testowa weryfikacja 3-D Secure. Nie bierze w niej udziału żaden prawdziwy bank i nie są przesyłane żadne pieniądze.',
  tdsMerchant: 'Sprzedawca',
  tdsAmount: 'Kwota',
  tdsChoose: 'Wybierz wynik tej testowej weryfikacji. Wygasa o {time}.',
  tdsAuthenticate: 'Uwierzytelnij',
  tdsFail: 'Symuluj niepowodzenie',
  tdsFailedHeading: 'Weryfikacja nieudana',
  tdsFailedBody:
    'Wybrano niepowodzenie weryfikacji. Z tym wynikiem płatność nie zostanie zrealizowana; możesz wrócić do strony płatności i spróbować ponownie.',
  tdsVerifiedHeading: 'Płatność potwierdzona',
  tdsVerifiedBody: 'Płatność została potwierdzona. Wróć do strony płatności, aby ją dokończyć.',
  tdsUsed: 'Ten wynik został już użyty do płatności.',
  tdsDevHeading: 'Wartości dla programistów',
  tdsDevNote: 'Wyślij je w ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'Identyfikator transakcji DS',
  tds400Heading: 'Wybierz wynik',
  tds400Body: 'Aby kontynuować, wybierz „Uwierzytelnij” lub „Symuluj niepowodzenie”.',
  tds403Heading: 'Żądanie odrzucone',
  tds403Body: 'Na tę weryfikację można odpowiedzieć tylko na jej własnej stronie.',
  tds404Heading: 'Nie znaleziono weryfikacji',
  tds404Body: 'Ta weryfikacja nie istnieje. Wróć do strony płatności i spróbuj ponownie.',
  tds410Heading: 'Weryfikacja wygasła',
  tds410Body: 'Czas na odpowiedź minął. Wróć do strony płatności i rozpocznij płatność od nowa.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Potwierdzenie płatności od {merchant}',
  receiptIntro: 'Dziękujemy za płatność na rzecz {merchant}. Oto potwierdzenie.',
  receiptMerchant: 'Sprzedawca',
  receiptOrder: 'Zamówienie',
  receiptAmount: 'Kwota',
  receiptPaidWith: 'Zapłacono',
  receiptTransaction: 'ID transakcji',
  receiptDate: 'Data',
  receiptCard: '{brand} z końcówką {last4}',
  receiptCardNoBrand: 'Karta z końcówką {last4}',
  receiptChecking: 'Rachunek bieżący z końcówką {last4}',
  receiptSavings: 'Rachunek oszczędnościowy z końcówką {last4}',
  receiptBusinessChecking: 'Rachunek firmowy z końcówką {last4}',
  receiptBankAccount: 'Rachunek bankowy z końcówką {last4}',
  receiptFooter: 'Zachowaj tę wiadomość. W sprawie zamówienia skontaktuj się z: {merchant}.',
};

/** Dutch (je): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const nl: ShopperTexts = {
  otpSms:
    '{code} is je Payframe-code om je opgeslagen kaarten te gebruiken bij {merchant}. De code verloopt over {minutes} minuten. Deel hem met niemand.',
  otpSubject: 'Je Payframe-code: {code}',
  otpEmail:
    'Je code om je opgeslagen kaarten te gebruiken bij {merchant} is {code}.\n\n' +
    'De code verloopt over {minutes} minuten (om {until}) en werkt één keer. ' +
    'Payframe vraagt je nooit telefonisch of per e-mail om deze code. Heb je hem niet aangevraagd? Dan kun je dit bericht negeren.',
  otpMerchant: 'de winkel',
  tdsBank: 'Payframe-testbank',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Payframe-testbank — bevestig deze betaling',
  tdsChallengeHeading: 'Bevestig deze betaling',
  tdsIntro:
    'Dit is een 3-D Secure-testcontrole. Er is geen echte bank bij betrokken en er wordt geen geld overgemaakt.',
  tdsMerchant: 'Verkoper',
  tdsAmount: 'Bedrag',
  tdsChoose: 'Kies de uitkomst van deze testverificatie. Ze verloopt om {time}.',
  tdsAuthenticate: 'Authenticeren',
  tdsFail: 'Mislukking simuleren',
  tdsFailedHeading: 'Verificatie mislukt',
  tdsFailedBody:
    'Je hebt gekozen om de verificatie te laten mislukken. Met deze controle gaat de betaling niet door; je kunt teruggaan naar de betaalpagina en het opnieuw proberen.',
  tdsVerifiedHeading: 'Betaling geverifieerd',
  tdsVerifiedBody: 'De betaling is geverifieerd. Ga terug naar de betaalpagina om de betaling af te ronden.',
  tdsUsed: 'Deze uitkomst is al voor een betaling gebruikt.',
  tdsDevHeading: 'Waarden voor ontwikkelaars',
  tdsDevNote: 'Stuur deze mee met ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'DS-transactie-ID',
  tds400Heading: 'Kies een uitkomst',
  tds400Body: 'Kies ‘Authenticeren’ of ‘Mislukking simuleren’ om verder te gaan.',
  tds403Heading: 'Verzoek geweigerd',
  tds403Body: 'Deze verificatie kan alleen op haar eigen pagina worden beantwoord.',
  tds404Heading: 'Verificatie niet gevonden',
  tds404Body: 'Deze verificatie bestaat niet. Ga terug naar de betaalpagina en probeer het opnieuw.',
  tds410Heading: 'Deze verificatie is verlopen',
  tds410Body:
    'De tijd om deze verificatie te beantwoorden is voorbij. Ga terug naar de betaalpagina en begin opnieuw met betalen.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Je betaalbewijs van {merchant}',
  receiptIntro: 'Bedankt voor je betaling aan {merchant}. Hier is je betaalbewijs.',
  receiptMerchant: 'Verkoper',
  receiptOrder: 'Bestelling',
  receiptAmount: 'Bedrag',
  receiptPaidWith: 'Betaald met',
  receiptTransaction: 'Transactie-ID',
  receiptDate: 'Datum',
  receiptCard: '{brand} eindigend op {last4}',
  receiptCardNoBrand: 'Kaart eindigend op {last4}',
  receiptChecking: 'Betaalrekening eindigend op {last4}',
  receiptSavings: 'Spaarrekening eindigend op {last4}',
  receiptBusinessChecking: 'Zakelijke rekening eindigend op {last4}',
  receiptBankAccount: 'Bankrekening eindigend op {last4}',
  receiptFooter:
    'Bewaar deze e-mail voor je administratie. Vragen over je bestelling? Neem contact op met {merchant}.',
};

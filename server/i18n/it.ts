/** Italian (tu): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const it: ShopperTexts = {
  otpSms:
    '{code} è il tuo codice Payframe per usare le carte salvate su {merchant}. Scade tra {minutes} minuti. Non condividerlo con nessuno.',
  otpSubject: 'Il tuo codice Payframe: {code}',
  otpEmail:
    'Il tuo codice per usare le carte salvate su {merchant} è {code}.\n\n' +
    'Scade tra {minutes} minuti (alle {until}) e vale una sola volta. ' +
    'Payframe non te lo chiederà mai per telefono o e-mail. Se non l’hai richiesto, ignora questo messaggio.',
  // A demonstrative: "su questo negozio" needs no articulated preposition.
  otpMerchant: 'questo negozio',
  tdsBank: 'Banca di test Payframe',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Banca di test Payframe — verifica questo pagamento',
  tdsChallengeHeading: 'Verifica questo pagamento',
  tdsIntro:
    'Questa è una verifica 3-D Secure di prova. Non è coinvolta nessuna banca reale e non viene spostato denaro.',
  tdsMerchant: 'Esercente',
  tdsAmount: 'Importo',
  tdsChoose: "Scegli l'esito di questa verifica di prova. Scade alle {time}.",
  tdsAuthenticate: 'Autentica',
  tdsFail: 'Simula un errore',
  tdsFailedHeading: 'Verifica non riuscita',
  tdsFailedBody:
    'Hai scelto di far fallire la verifica. Con questo esito il pagamento non andrà a buon fine; puoi tornare alla pagina di pagamento e riprovare.',
  tdsVerifiedHeading: 'Pagamento verificato',
  tdsVerifiedBody: 'Il pagamento è stato verificato. Puoi tornare alla pagina di pagamento per completarlo.',
  tdsUsed: 'Questo esito è già stato usato per un pagamento.',
  tdsDevHeading: 'Valori per gli sviluppatori',
  tdsDevNote: 'Inviali con ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'ID transazione DS',
  tds400Heading: 'Scegli un esito',
  tds400Body: 'Scegli «Autentica» o «Simula un errore» per continuare.',
  tds403Heading: 'Richiesta rifiutata',
  tds403Body: 'A questa verifica si può rispondere solo dalla sua pagina.',
  tds404Heading: 'Verifica non trovata',
  tds404Body: 'Questa verifica non esiste. Torna alla pagina di pagamento e riprova.',
  tds410Heading: 'Questa verifica è scaduta',
  tds410Body:
    'Il tempo per rispondere a questa verifica è scaduto. Torna alla pagina di pagamento e ricomincia il pagamento.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'La tua ricevuta da {merchant}',
  receiptIntro: 'Grazie per il tuo pagamento a {merchant}. Ecco la tua ricevuta.',
  receiptMerchant: 'Esercente',
  receiptOrder: 'Ordine',
  receiptAmount: 'Importo',
  receiptPaidWith: 'Pagato con',
  receiptTransaction: 'ID transazione',
  receiptDate: 'Data',
  receiptCard: '{brand} che termina con {last4}',
  receiptCardNoBrand: 'Carta che termina con {last4}',
  receiptChecking: 'Conto corrente che termina con {last4}',
  receiptSavings: 'Conto di risparmio che termina con {last4}',
  receiptBusinessChecking: 'Conto corrente aziendale che termina con {last4}',
  receiptBankAccount: 'Conto bancario che termina con {last4}',
  receiptFooter: 'Conserva questa e-mail. Per domande sul tuo ordine, contatta {merchant}.',
};

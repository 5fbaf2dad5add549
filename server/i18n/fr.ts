/** French (vous): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const fr: ShopperTexts = {
  otpSms:
    '{code} est votre code Payframe pour utiliser vos cartes enregistrées chez {merchant}. Il expire dans {minutes} minutes. Ne le communiquez à personne.',
  otpSubject: 'Votre code Payframe : {code}',
  otpEmail:
    'Votre code pour utiliser vos cartes enregistrées chez {merchant} est {code}.\n\n' +
    "Il expire dans {minutes} minutes (à {until}) et ne sert qu'une fois. " +
    "Payframe ne vous le demandera jamais par téléphone ni par e-mail. Si vous ne l'avez pas demandé, ignorez ce message.",
  otpMerchant: 'le marchand',
  tdsBank: 'Banque de test Payframe',
  tdsSandbox: 'Test',
  tdsChallengeTitle: 'Banque de test Payframe — vérifiez ce paiement',
  tdsChallengeHeading: 'Vérifiez ce paiement',
  tdsIntro:
    "Ceci est une vérification 3-D Secure de test. Aucune vraie banque n'intervient et aucun argent n'est débité.",
  tdsMerchant: 'Marchand',
  tdsAmount: 'Montant',
  tdsChoose: 'Choisissez le résultat de cette vérification de test. Elle expire à {time}.',
  tdsAuthenticate: 'Authentifier',
  tdsFail: 'Simuler un échec',
  tdsFailedHeading: 'Échec de la vérification',
  tdsFailedBody:
    "Vous avez choisi de faire échouer la vérification. Le paiement n'aboutira pas avec celle-ci ; vous pouvez revenir à la page de paiement et réessayer.",
  tdsVerifiedHeading: 'Paiement vérifié',
  tdsVerifiedBody: 'Le paiement a été vérifié. Vous pouvez revenir à la page de paiement pour le finaliser.',
  tdsUsed: 'Ce résultat a déjà servi pour un paiement.',
  tdsDevHeading: 'Valeurs pour les développeurs',
  tdsDevNote: 'Envoyez-les avec ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'Identifiant de transaction DS',
  tds400Heading: 'Choisissez un résultat',
  tds400Body: 'Choisissez « Authentifier » ou « Simuler un échec » pour continuer.',
  tds403Heading: 'Requête refusée',
  tds403Body: 'Cette vérification ne peut recevoir de réponse que depuis sa propre page.',
  tds404Heading: 'Vérification introuvable',
  tds404Body: "Cette vérification n'existe pas. Revenez à la page de paiement et réessayez.",
  tds410Heading: 'Cette vérification a expiré',
  tds410Body:
    'Le délai pour répondre à cette vérification est dépassé. Revenez à la page de paiement et recommencez le paiement.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Votre reçu de {merchant}',
  receiptIntro: 'Merci pour votre paiement à {merchant}. Voici votre reçu.',
  receiptMerchant: 'Marchand',
  receiptOrder: 'Commande',
  receiptAmount: 'Montant',
  receiptPaidWith: 'Payé avec',
  receiptTransaction: 'ID de transaction',
  receiptDate: 'Date et heure',
  receiptCard: '{brand} se terminant par {last4}',
  receiptCardNoBrand: 'Carte se terminant par {last4}',
  receiptChecking: 'Compte courant se terminant par {last4}',
  receiptSavings: 'Compte d’épargne se terminant par {last4}',
  receiptBusinessChecking: 'Compte courant professionnel se terminant par {last4}',
  receiptBankAccount: 'Compte bancaire se terminant par {last4}',
  receiptFooter: 'Conservez cet e-mail. Pour toute question sur votre commande, contactez {merchant}.',
};

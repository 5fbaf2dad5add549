/** Spanish (usted): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const es: ShopperTexts = {
  otpSms:
    '{code} es su código de Payframe para usar sus tarjetas guardadas en {merchant}. Caduca en {minutes} minutos. No lo comparta con nadie.',
  otpSubject: 'Su código de Payframe: {code}',
  otpEmail:
    'Su código para usar sus tarjetas guardadas en {merchant} es {code}.\n\n' +
    'Caduca en {minutes} minutos (a las {until}) y solo sirve una vez. ' +
    'Payframe nunca se lo pedirá por teléfono ni por correo electrónico. Si no lo ha solicitado, ignore este mensaje.',
  otpMerchant: 'la tienda',
  tdsBank: 'Banco de pruebas de Payframe',
  tdsSandbox: 'Pruebas',
  tdsChallengeTitle: 'Banco de pruebas de Payframe — verifique este pago',
  tdsChallengeHeading: 'Verifique este pago',
  tdsIntro:
    'Esta es una comprobación 3-D Secure de prueba. No interviene ningún banco real y no se mueve dinero.',
  tdsMerchant: 'Comercio',
  tdsAmount: 'Importe',
  tdsChoose: 'Elija el resultado de esta verificación de prueba. Caduca a las {time}.',
  tdsAuthenticate: 'Autenticar',
  tdsFail: 'Simular un fallo',
  tdsFailedHeading: 'Verificación fallida',
  tdsFailedBody:
    'Ha elegido que la verificación falle. El pago no se completará con esta comprobación; puede volver a la página de pago e intentarlo de nuevo.',
  tdsVerifiedHeading: 'Pago verificado',
  tdsVerifiedBody: 'El pago se ha verificado. Puede volver a la página de pago para terminar de pagar.',
  tdsUsed: 'Este resultado ya se ha usado para un pago.',
  tdsDevHeading: 'Valores para desarrolladores',
  tdsDevNote: 'Envíelos con ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'ID de transacción del DS',
  tds400Heading: 'Elija un resultado',
  tds400Body: 'Elija «Autenticar» o «Simular un fallo» para continuar.',
  tds403Heading: 'Solicitud rechazada',
  tds403Body: 'Esta verificación solo se puede responder desde su propia página.',
  tds404Heading: 'Verificación no encontrada',
  tds404Body: 'Esta verificación no existe. Vuelva a la página de pago e inténtelo de nuevo.',
  tds410Heading: 'Esta verificación ha caducado',
  tds410Body:
    'Se agotó el tiempo para responder a esta verificación. Vuelva a la página de pago y empiece el pago de nuevo.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Tu recibo de {merchant}',
  receiptIntro: 'Gracias por tu pago a {merchant}. Este es tu recibo.',
  receiptMerchant: 'Comercio',
  receiptOrder: 'Pedido',
  receiptAmount: 'Importe',
  receiptPaidWith: 'Pagado con',
  receiptTransaction: 'ID de transacción',
  receiptDate: 'Fecha',
  receiptCard: '{brand} terminada en {last4}',
  receiptCardNoBrand: 'Tarjeta terminada en {last4}',
  receiptChecking: 'Cuenta corriente terminada en {last4}',
  receiptSavings: 'Cuenta de ahorros terminada en {last4}',
  receiptBusinessChecking: 'Cuenta corriente de empresa terminada en {last4}',
  receiptBankAccount: 'Cuenta bancaria terminada en {last4}',
  receiptFooter:
    'Guarda este correo para tus registros. Si tienes preguntas sobre tu pedido, contacta con {merchant}.',
};

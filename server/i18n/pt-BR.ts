/** Portuguese (Brazil, você): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const ptBR: ShopperTexts = {
  // "pagar {merchant}": the fallback "a loja" needs no contraction there ("na loja" would).
  otpSms:
    '{code} é o seu código Payframe para pagar {merchant} com seus cartões salvos. Ele expira em {minutes} minutos. Não compartilhe com ninguém.',
  otpSubject: 'Seu código Payframe: {code}',
  otpEmail:
    'Seu código para pagar {merchant} com seus cartões salvos é {code}.\n\n' +
    'Ele expira em {minutes} minutos (às {until}) e só pode ser usado uma vez. ' +
    'A Payframe nunca vai pedir esse código por telefone ou e-mail. Se você não pediu o código, ignore esta mensagem.',
  otpMerchant: 'a loja',
  tdsBank: 'Banco de testes Payframe',
  tdsSandbox: 'Teste',
  tdsChallengeTitle: 'Banco de testes Payframe — verifique este pagamento',
  tdsChallengeHeading: 'Verifique este pagamento',
  tdsIntro:
    'Esta é uma verificação 3-D Secure de teste. Nenhum banco real participa e nenhum dinheiro é movimentado.',
  tdsMerchant: 'Estabelecimento',
  tdsAmount: 'Valor',
  tdsChoose: 'Escolha o resultado desta verificação de teste. Ela expira às {time}.',
  tdsAuthenticate: 'Autenticar',
  tdsFail: 'Simular falha',
  tdsFailedHeading: 'Falha na verificação',
  tdsFailedBody:
    'Você escolheu simular uma falha na verificação. O pagamento não será concluído com esta verificação; você pode voltar à página de pagamento e tentar novamente.',
  tdsVerifiedHeading: 'Pagamento verificado',
  tdsVerifiedBody: 'O pagamento foi verificado. Você pode voltar à página de pagamento para concluí-lo.',
  tdsUsed: 'Este resultado já foi usado em um pagamento.',
  tdsDevHeading: 'Valores para desenvolvedores',
  tdsDevNote: 'Envie estes valores com ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'ID da transação no DS',
  tds400Heading: 'Escolha um resultado',
  tds400Body: 'Escolha “Autenticar” ou “Simular falha” para continuar.',
  tds403Heading: 'Solicitação recusada',
  tds403Body: 'Esta verificação só pode ser respondida na própria página.',
  tds404Heading: 'Verificação não encontrada',
  tds404Body: 'Esta verificação não existe. Volte à página de pagamento e tente novamente.',
  tds410Heading: 'Esta verificação expirou',
  tds410Body:
    'O prazo para responder a esta verificação acabou. Volte à página de pagamento e comece o pagamento de novo.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'Seu recibo de {merchant}',
  receiptIntro: 'Obrigado pelo seu pagamento a {merchant}. Aqui está o seu recibo.',
  receiptMerchant: 'Loja',
  receiptOrder: 'Pedido',
  receiptAmount: 'Valor',
  receiptPaidWith: 'Pago com',
  receiptTransaction: 'ID da transação',
  receiptDate: 'Data',
  receiptCard: '{brand} com final {last4}',
  receiptCardNoBrand: 'Cartão com final {last4}',
  receiptChecking: 'Conta corrente com final {last4}',
  receiptSavings: 'Conta poupança com final {last4}',
  receiptBusinessChecking: 'Conta corrente empresarial com final {last4}',
  receiptBankAccount: 'Conta bancária com final {last4}',
  receiptFooter:
    'Guarde este e-mail para seus registros. Em caso de dúvidas sobre o pedido, fale com {merchant}.',
};

/** Japanese (です/ます): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const ja: ShopperTexts = {
  otpSms:
    'Payframe の確認コード: {code}（{merchant} で保存済みのカードを使うためのコードです）。有効期限は {minutes} 分です。他の人には絶対に教えないでください。',
  otpSubject: 'Payframe の確認コード: {code}',
  otpEmail:
    '{merchant} で保存済みのカードをご利用いただくための確認コードは {code} です。\n\n' +
    'このコードの有効期限は {minutes} 分（{until} まで）で、1 回のみご利用いただけます。' +
    'Payframe がお電話やメールでこのコードをお尋ねすることはありません。お心当たりがない場合は、このメッセージを無視してください。',
  otpMerchant: 'ストア',
  tdsBank: 'Payframe テスト銀行',
  tdsSandbox: 'テスト',
  tdsChallengeTitle: 'Payframe テスト銀行 — お支払いの確認',
  tdsChallengeHeading: 'お支払いの確認',
  tdsIntro: 'これはテスト用の 3-D セキュア認証です。実際の銀行は関与せず、お金は動きません。',
  tdsMerchant: '加盟店',
  tdsAmount: '金額',
  tdsChoose: 'このテスト認証の結果を選択してください。有効期限は {time} です。',
  tdsAuthenticate: '認証する',
  tdsFail: '認証を失敗させる',
  tdsFailedHeading: '認証に失敗しました',
  tdsFailedBody:
    '認証を失敗させることを選択しました。この結果ではお支払いは完了しません。お支払いページに戻って、もう一度お試しいただけます。',
  tdsVerifiedHeading: 'お支払いが確認されました',
  tdsVerifiedBody: 'お支払いが確認されました。お支払いページに戻って、お手続きを完了してください。',
  tdsUsed: 'この結果はすでにお支払いに使用されています。',
  tdsDevHeading: '開発者向けの値',
  tdsDevNote:
    'これらの値を ProcessTransaction（CAVV、ECI、XID、DirectoryServerTransactionId）で送信してください。',
  tdsDsTransactionId: 'DS トランザクション ID',
  tds400Heading: '結果を選択してください',
  tds400Body: '続けるには「認証する」または「認証を失敗させる」を選択してください。',
  tds403Heading: 'リクエストが拒否されました',
  tds403Body: 'この認証には、認証ページからのみ回答できます。',
  tds404Heading: '認証が見つかりません',
  tds404Body: 'この認証は存在しません。お支払いページに戻って、もう一度お試しください。',
  tds410Heading: 'この認証は有効期限が切れています',
  tds410Body:
    'この認証に回答できる時間が過ぎました。お支払いページに戻って、最初からお支払いをやり直してください。',
  // The receipt e-mail after an approved payment.
  receiptSubject: '{merchant} からの領収書',
  receiptIntro: '{merchant} へのお支払いありがとうございます。領収書をお送りします。',
  receiptMerchant: '加盟店',
  receiptOrder: '注文番号',
  receiptAmount: '金額',
  receiptPaidWith: 'お支払い方法',
  receiptTransaction: '取引 ID',
  receiptDate: '日時',
  receiptCard: '{brand}（末尾 {last4}）',
  receiptCardNoBrand: 'カード（末尾 {last4}）',
  receiptChecking: '当座預金口座（末尾 {last4}）',
  receiptSavings: '普通預金口座（末尾 {last4}）',
  receiptBusinessChecking: '法人当座預金口座（末尾 {last4}）',
  receiptBankAccount: '銀行口座（末尾 {last4}）',
  receiptFooter:
    'このメールは控えとして保管してください。ご注文についてのお問い合わせは {merchant} までご連絡ください。',
};

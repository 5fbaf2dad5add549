/** Chinese (Simplified, 您): the server's shopper texts (en.ts). */
import type { ShopperTexts } from './en.ts';

export const zhCN: ShopperTexts = {
  otpSms:
    '{code} 是您的 Payframe 验证码，用于在{merchant}使用已保存的卡，{minutes} 分钟内有效。请勿告诉他人。',
  otpSubject: '您的 Payframe 验证码：{code}',
  otpEmail:
    '您在{merchant}使用已保存的卡所需的验证码是 {code}。\n\n' +
    '验证码 {minutes} 分钟内有效（至 {until}），仅可使用一次。' +
    'Payframe 绝不会通过电话或电子邮件向您索要验证码。如果您没有申请此验证码，请忽略此邮件。',
  otpMerchant: '商户',
  tdsBank: 'Payframe 测试银行',
  tdsSandbox: '测试',
  tdsChallengeTitle: 'Payframe 测试银行 — 验证此付款',
  tdsChallengeHeading: '验证此付款',
  tdsIntro: '这是一次 3-D Secure 测试验证。不涉及真实银行，也不会产生资金往来。',
  tdsMerchant: '商户',
  tdsAmount: '金额',
  tdsChoose: '请选择此次测试验证的结果。验证将于 {time} 过期。',
  tdsAuthenticate: '通过验证',
  tdsFail: '模拟验证失败',
  tdsFailedHeading: '验证失败',
  tdsFailedBody: '您选择了模拟验证失败。此付款不会通过本次验证；您可以返回付款页面重试。',
  tdsVerifiedHeading: '付款已验证',
  tdsVerifiedBody: '付款已通过验证。您可以返回付款页面完成付款。',
  tdsUsed: '此结果已用于一笔付款。',
  tdsDevHeading: '供开发者使用的值',
  tdsDevNote: '请在 ProcessTransaction 中发送这些值（CAVV、ECI、XID、DirectoryServerTransactionId）。',
  tdsDsTransactionId: 'DS 交易 ID',
  tds400Heading: '请选择结果',
  tds400Body: '请选择“通过验证”或“模拟验证失败”以继续。',
  tds403Heading: '请求被拒绝',
  tds403Body: '只能在此验证自己的页面上作答。',
  tds404Heading: '未找到验证',
  tds404Body: '此验证不存在。请返回付款页面重试。',
  tds410Heading: '此验证已过期',
  tds410Body: '回答此验证的时间已过。请返回付款页面重新开始付款。',
};

/**
 * Hebrew (formal, gender-neutral): the server's shopper texts (en.ts). Left-to-right values (the
 * merchant's name, times) sit between U+2068 and U+2069, as in widget/app/pay/i18n/he.ts.
 */
import type { ShopperTexts } from './en.ts';

export const he: ShopperTexts = {
  otpSms:
    'הקוד שלך ב-Payframe לשימוש בכרטיסים השמורים אצל \u2068{merchant}\u2069: {code}. הקוד תקף ל-{minutes} דקות. אין למסור אותו לאף אחד.',
  otpSubject: 'הקוד שלך ב-Payframe: {code}',
  otpEmail:
    'הקוד לשימוש בכרטיסים השמורים שלך אצל \u2068{merchant}\u2069 הוא {code}.\n\n' +
    'הקוד תקף ל-{minutes} דקות (עד \u2068{until}\u2069) וניתן להשתמש בו פעם אחת בלבד. ' +
    'Payframe לעולם לא תבקש אותו בטלפון או באימייל. אם לא ביקשת את הקוד, אפשר להתעלם מההודעה הזו.',
  otpMerchant: 'החנות',
  tdsBank: 'בנק הבדיקות של Payframe',
  tdsSandbox: 'בדיקות',
  tdsChallengeTitle: 'בנק הבדיקות של Payframe — אימות התשלום',
  tdsChallengeHeading: 'אימות התשלום',
  tdsIntro: 'זוהי בדיקת 3-D Secure לניסיון. אין מעורבות של בנק אמיתי ולא מועבר כסף.',
  tdsMerchant: 'בית העסק',
  tdsAmount: 'סכום',
  tdsChoose: 'יש לבחור את התוצאה של אימות הניסיון הזה. תוקפו יפוג ב-\u2068{time}\u2069.',
  tdsAuthenticate: 'אימות',
  tdsFail: 'הדמיית כישלון באימות',
  tdsFailedHeading: 'האימות נכשל',
  tdsFailedBody:
    'נבחרה הדמיית כישלון באימות. התשלום לא יעבור עם הבדיקה הזו; אפשר לחזור לדף התשלום ולנסות שוב.',
  tdsVerifiedHeading: 'התשלום אומת',
  tdsVerifiedBody: 'התשלום אומת. אפשר לחזור לדף התשלום כדי לסיים לשלם.',
  tdsUsed: 'התוצאה הזו כבר שימשה לתשלום.',
  tdsDevHeading: 'ערכים למפתחים',
  tdsDevNote: 'יש לשלוח אותם עם ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'מזהה עסקה ב-DS',
  tds400Heading: 'יש לבחור תוצאה',
  tds400Body: 'כדי להמשיך, יש לבחור "אימות" או "הדמיית כישלון באימות".',
  tds403Heading: 'הבקשה נדחתה',
  tds403Body: 'אפשר לענות על האימות הזה רק מהדף שלו.',
  tds404Heading: 'האימות לא נמצא',
  tds404Body: 'האימות הזה לא קיים. יש לחזור לדף התשלום ולנסות שוב.',
  tds410Heading: 'תוקף האימות הזה פג',
  tds410Body: 'הזמן לענות על האימות הזה הסתיים. יש לחזור לדף התשלום ולהתחיל את התשלום מחדש.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'הקבלה שלך מ-\u2068{merchant}\u2069',
  receiptIntro: 'תודה על התשלום ל-\u2068{merchant}\u2069. הנה הקבלה שלך.',
  receiptMerchant: 'בית העסק',
  receiptOrder: 'הזמנה',
  receiptAmount: 'סכום',
  receiptPaidWith: 'אמצעי תשלום',
  receiptTransaction: 'מזהה עסקה',
  receiptDate: 'תאריך',
  receiptCard: '\u2068{brand}\u2069 המסתיים ב-\u2068{last4}\u2069',
  receiptCardNoBrand: 'כרטיס המסתיים ב-\u2068{last4}\u2069',
  receiptChecking: 'חשבון עו״ש המסתיים ב-\u2068{last4}\u2069',
  receiptSavings: 'חשבון חיסכון המסתיים ב-\u2068{last4}\u2069',
  receiptBusinessChecking: 'חשבון עסקי המסתיים ב-\u2068{last4}\u2069',
  receiptBankAccount: 'חשבון בנק המסתיים ב-\u2068{last4}\u2069',
  receiptFooter: 'שמרו הודעה זו לרישומים שלכם. לשאלות על ההזמנה, פנו אל \u2068{merchant}\u2069.',
};

/**
 * Arabic (formal, gender-neutral): the server's shopper texts (en.ts). Left-to-right values (the
 * merchant's name, times) sit between U+2068 and U+2069, as in widget/app/pay/i18n/ar.ts.
 */
import type { ShopperTexts } from './en.ts';

export const ar: ShopperTexts = {
  otpSms:
    'رمز Payframe لاستخدام بطاقاتك المحفوظة لدى \u2068{merchant}\u2069 هو {code}. تنتهي صلاحيته بعد {minutes} دقيقة. يُرجى عدم مشاركته مع أي شخص.',
  otpSubject: 'رمز Payframe الخاص بك: {code}',
  otpEmail:
    'رمزك لاستخدام بطاقاتك المحفوظة لدى \u2068{merchant}\u2069 هو {code}.\n\n' +
    'تنتهي صلاحيته بعد {minutes} دقيقة (في \u2068{until}\u2069) ويصلح لمرة واحدة فقط. ' +
    'لن تطلبه منك Payframe أبدًا عبر الهاتف أو البريد الإلكتروني. إذا لم تطلب هذا الرمز، يُرجى تجاهل هذه الرسالة.',
  otpMerchant: 'المتجر',
  tdsBank: 'بنك Payframe التجريبي',
  tdsSandbox: 'تجريبي',
  tdsChallengeTitle: 'بنك Payframe التجريبي — التحقق من هذا الدفع',
  tdsChallengeHeading: 'التحقق من هذا الدفع',
  tdsIntro: 'هذا تحقق تجريبي من 3-D Secure. لا يشارك فيه أي بنك حقيقي ولا تُنقل أي أموال.',
  tdsMerchant: 'التاجر',
  tdsAmount: 'المبلغ',
  tdsChoose: 'يُرجى اختيار نتيجة هذا التحقق التجريبي. تنتهي صلاحيته في \u2068{time}\u2069.',
  tdsAuthenticate: 'مصادقة',
  tdsFail: 'محاكاة فشل المصادقة',
  tdsFailedHeading: 'فشل التحقق',
  tdsFailedBody:
    'تم اختيار محاكاة فشل التحقق. لن يكتمل الدفع بهذا التحقق؛ يمكنك العودة إلى صفحة الدفع وإعادة المحاولة.',
  tdsVerifiedHeading: 'تم التحقق من الدفع',
  tdsVerifiedBody: 'تم التحقق من الدفع. يمكنك العودة إلى صفحة الدفع لإتمامه.',
  tdsUsed: 'سبق استخدام هذه النتيجة في عملية دفع.',
  tdsDevHeading: 'قيم للمطورين',
  tdsDevNote: 'تُرسل هذه القيم مع ProcessTransaction (CAVV، ECI، XID، DirectoryServerTransactionId).',
  tdsDsTransactionId: 'معرّف معاملة DS',
  tds400Heading: 'يُرجى اختيار نتيجة',
  tds400Body: 'للمتابعة، يُرجى اختيار «مصادقة» أو «محاكاة فشل المصادقة».',
  tds403Heading: 'تم رفض الطلب',
  tds403Body: 'لا يمكن الرد على هذا التحقق إلا من صفحته.',
  tds404Heading: 'لم يتم العثور على التحقق',
  tds404Body: 'هذا التحقق غير موجود. يُرجى العودة إلى صفحة الدفع وإعادة المحاولة.',
  tds410Heading: 'انتهت صلاحية هذا التحقق',
  tds410Body: 'انتهت مهلة الرد على هذا التحقق. يُرجى العودة إلى صفحة الدفع وبدء الدفع من جديد.',
  // The receipt e-mail after an approved payment.
  receiptSubject: 'إيصالك من \u2068{merchant}\u2069',
  receiptIntro: 'شكرًا لك على الدفع إلى \u2068{merchant}\u2069. إليك إيصالك.',
  receiptMerchant: 'التاجر',
  receiptOrder: 'الطلب',
  receiptAmount: 'المبلغ',
  receiptPaidWith: 'طريقة الدفع',
  receiptTransaction: 'رقم المعاملة',
  receiptDate: 'التاريخ',
  receiptCard: '\u2068{brand}\u2069 المنتهية بـ \u2068{last4}\u2069',
  receiptCardNoBrand: 'البطاقة المنتهية بـ \u2068{last4}\u2069',
  receiptChecking: 'الحساب الجاري المنتهي بـ \u2068{last4}\u2069',
  receiptSavings: 'حساب التوفير المنتهي بـ \u2068{last4}\u2069',
  receiptBusinessChecking: 'الحساب الجاري التجاري المنتهي بـ \u2068{last4}\u2069',
  receiptBankAccount: 'الحساب المصرفي المنتهي بـ \u2068{last4}\u2069',
  receiptFooter: 'احتفظ بهذه الرسالة في سجلاتك. لأي سؤال عن طلبك، تواصل مع \u2068{merchant}\u2069.',
};

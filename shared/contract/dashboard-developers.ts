/**
 * The merchant dashboard's developers extensions. Developers (issue 16): the TransactionKey's roll with an overlap, the webhook endpoint and its signing secret, and the deliveries the merchant can inspect, resend and test.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */
import type { EnumValue } from './enum-values.ts';
import { complexType, enumeration, field, listOf, operation } from './model.ts';

const required = { required: true } as const;

/*
 * The TransactionKey (helper B1): RollTransactionKey and GetTransactionKeyStatus. The key itself is
 * answered once, by the roll that made it; no read answers it (docs/merchant-guide.md "Rolling your
 * TransactionKey").
 */

/** How long the key being replaced keeps working after a roll. */
export const TransactionKeyOverlap = enumeration('TransactionKeyOverlap', [
  'None',
  'OneHour',
  'TwentyFourHours',
]);
export type TransactionKeyOverlap = EnumValue<typeof TransactionKeyOverlap>;

const keyTypes = [
  // RollTransactionKey's answer: the new key, shown this once.
  complexType('TransactionKeyRoll', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('TransactionKey', 'string'), // the new key; never answered again
    // Until then the replaced key authenticates and signs too; absent for the overlap None.
    field('PreviousKeyValidUntil', 'dateTime'),
  ]),
  // The keys' state, never a key: when each last authenticated (to about a minute) and the overlap.
  complexType('TransactionKeyStatus', [
    field('MerchantID', 'long', required),
    field('KeyLastUsedAt', 'dateTime'), // absent: not used since it was made
    field('PreviousKeyValidUntil', 'dateTime'), // absent: no overlap now
    field('PreviousKeyLastUsedAt', 'dateTime'),
  ]),
] as const;

const keyOperations = [
  operation({
    name: 'RollTransactionKey',
    doc: 'Replaces the TransactionKey; the new key is answered once, the old one works for the chosen overlap (Owner).',
    params: [field('overlap', TransactionKeyOverlap, required)],
    result: 'TransactionKeyRoll',
    extension: true,
  }),
  operation({
    name: 'GetTransactionKeyStatus',
    doc: "When the TransactionKey and the previous one were last used, and the overlap's end; never a key (Owner).",
    params: [],
    result: 'TransactionKeyStatus',
    extension: true,
  }),
] as const;

/*
 * Webhooks (helper B2): the merchant's endpoint and signing secret (gateway configuration), and the
 * checkout's deliveries, which the dashboard reads and sends itself once the gateway has said the
 * user may (docs/dashboard.md "Developers", docs/merchant-guide.md "Webhooks").
 */

/** What a user asks the checkout to send (AuthorizeWebhookDelivery). */
export const WebhookDeliveryKind = enumeration('WebhookDeliveryKind', ['Resend', 'TestEvent']);
export type WebhookDeliveryKind = EnumValue<typeof WebhookDeliveryKind>;

const webhookTypes = [
  // The merchant's webhook settings, never a secret.
  complexType('WebhookSettings', [
    field('MerchantID', 'long', required),
    // Where sessions without a webhook URL of their own are announced; absent: nowhere.
    field('EndpointUrl', 'string'),
    field('SecretCreatedAt', 'dateTime'), // absent: no signing secret (the TransactionKey signs)
    field('PreviousSecretValidUntil', 'dateTime'), // absent: no overlap now
  ]),
  // RollWebhookSecret's answer: the new secret, shown this once.
  complexType('WebhookSecretRoll', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('Secret', 'string'), // whsec_…; never answered again
    field('PreviousSecretValidUntil', 'dateTime'), // absent for a first secret
  ]),
  // SignWebhook's answer: one signature per secret in use, the current one first.
  complexType('WebhookSignatures', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    // Lowercase hex HMAC-SHA256s; none when the merchant has no webhook secret (the caller signs
    // under the TransactionKey, SignForMerchant).
    field('Signatures', listOf('string')),
  ]),
  // AuthorizeWebhookDelivery's answer: the user may; where a test event goes.
  complexType('WebhookDeliveryPermit', [
    field('Success', 'boolean', required),
    field('Message', 'string'),
    field('EndpointUrl', 'string'),
  ]),
] as const;

const webhookOperations = [
  operation({
    name: 'GetWebhookSettings',
    doc: "The merchant's webhook endpoint and whether a signing secret is set; never the secret (Admin).",
    params: [],
    result: 'WebhookSettings',
    extension: true,
  }),
  operation({
    name: 'SetWebhookEndpoint',
    doc: 'Sets the webhook endpoint for sessions without a webhook URL of their own; empty clears it (Owner).',
    params: [field('endpointUrl', 'string')],
    result: 'WebhookSettings',
    extension: true,
  }),
  operation({
    name: 'RollWebhookSecret',
    doc: 'Makes a new webhook signing secret, answered once; the one it replaces signs too for 24 hours (Owner).',
    params: [],
    result: 'WebhookSecretRoll',
    extension: true,
  }),
  // The checkout signs each delivery: the secret never leaves the gateway (as SignForMerchant).
  operation({
    name: 'SignWebhook',
    doc: "Signs a webhook's signed text under the merchant's webhook secrets, if any (checkout server only).",
    params: [field('merchantID', 'long', required), field('message', 'string')],
    result: 'WebhookSignatures',
    extension: true,
  }),
  // The deliveries are the checkout's: the gateway decides who may resend one or send a test event
  // (and records it in the audit log), then the checkout sends.
  operation({
    name: 'AuthorizeWebhookDelivery',
    doc: 'Allows the signed-in user to resend a delivery or send a test event, and says where a test event goes (Admin).',
    params: [field('kind', WebhookDeliveryKind, required), field('eventID', 'string')],
    result: 'WebhookDeliveryPermit',
    extension: true,
  }),
] as const;

/** The enumerations of this part, each declared once in the WSDL. */
export const developersEnumerations = [TransactionKeyOverlap, WebhookDeliveryKind] as const;

/** The complex types of this part. */
export const developersTypes = [...keyTypes, ...webhookTypes] as const;

/** The operations of this part (each with `extension: true`). */
export const developersOperations = [...keyOperations, ...webhookOperations] as const;

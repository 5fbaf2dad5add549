/**
 * The merchant dashboard's developers extensions. Developers (issue 16): the TransactionKey's roll with an overlap, the webhook endpoint and its signing secret, and the deliveries the merchant can inspect, resend and test.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */

/** The enumerations of this part, each declared once in the WSDL. */
export const developersEnumerations = [] as const;

/** The complex types of this part. */
export const developersTypes = [] as const;

/** The operations of this part (each with `extension: true`). */
export const developersOperations = [] as const;

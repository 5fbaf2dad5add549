/**
 * The merchant dashboard's team extensions. Team (issue 16): the merchant's users and their roles; invitations by e-mail, disabling a user, resetting a second factor, changing a role.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */

/** The enumerations of this part, each declared once in the WSDL. */
export const teamEnumerations = [] as const;

/** The complex types of this part. */
export const teamTypes = [] as const;

/** The operations of this part (each with `extension: true`). */
export const teamOperations = [] as const;

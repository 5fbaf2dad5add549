/**
 * The merchant dashboard's settings extensions. Settings (issue 16): the merchant's business details, branding, checkout options and registered origins, read and changed by its Owner or Admin.
 * Declared with the contract's builders (model.ts); extensions.ts adds them to the extension lists,
 * so the WSDL, codec, help page and types derive from them. docs/dashboard.md says what each means.
 */

/** The enumerations of this part, each declared once in the WSDL. */
export const settingsEnumerations = [] as const;

/** The complex types of this part. */
export const settingsTypes = [] as const;

/** The operations of this part (each with `extension: true`). */
export const settingsOperations = [] as const;

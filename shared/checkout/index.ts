/** The checkout API's schemas (merchant REST and widget), declared once for server, docs and widget. */
export * from './fields.ts';
export * from './pay-schemas.ts';
export * from './session-schemas.ts';
export * from './wallet-schemas.ts';
export * from './embed-messages.ts';

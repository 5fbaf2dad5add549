/** How long a payment claim may be held before another caller treats its attempt as cut short (default). */
export const CLAIM_TIMEOUT_MS = 20_000;

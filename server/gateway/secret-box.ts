/** Encrypts small secrets (TransactionKeys, reader keys) at rest; the vault's key module implements it. */
export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(blob: string): string;
}

/** Seals secrets at rest. Storage only ever sees sealed strings. */
export interface SecretBox {
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

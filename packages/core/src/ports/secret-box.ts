/** Seals secrets at rest. Storage only ever sees sealed strings. */
export interface SecretBox {
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
  /**
   * A key for `purpose` derived from the box's own key (hex), the same for the same key and purpose
   * and useless for anything else. Keyed hashes that must stay comparable, such as an erasure's
   * suppression entry, use it. A box without it can't erase people (lead intake then checks nothing).
   */
  deriveKey?(purpose: string): Promise<string>;
}

/** Ids are injected so tests can make them predictable; the default is a random UUID v4. */
export type IdGenerator = () => string;

export const randomUuid: IdGenerator = () => crypto.randomUUID();

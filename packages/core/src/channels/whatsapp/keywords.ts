/**
 * Opt-out and opt-in keywords. A message counts only when it is the keyword alone: "STOP" and
 * "¡Baja!" opt out, "stop sending me offers" and "no me den de baja" don't (a clear request in
 * other words still reaches the thread for a person to act on, and the console's "opt out on
 * request" records it). Matching ignores case, accents, surrounding punctuation, symbols and
 * emoji, and repeated spaces.
 */

/** English and Spanish, after the SMS carriers' standard set and common LATAM usage. */
export const DEFAULT_OPT_OUT_KEYWORDS: readonly string[] = [
  "stop",
  "stopall",
  "stop promotions",
  "unsubscribe",
  "cancel",
  "end",
  "quit",
  "optout",
  "opt out",
  "revoke",
  "baja",
  "darme de baja",
  "dar de baja",
  "salir",
  "cancelar",
  "detener",
  "detener promociones",
  "parar",
  "no mas",
  "no mas mensajes",
];

/** Opting back in is the person's own act: these words, or WhatsApp's `resume` preference. */
export const DEFAULT_OPT_IN_KEYWORDS: readonly string[] = ["start", "unstop", "resume", "alta", "reanudar", "volver"];

/** At most this many keywords per list, each at most this long: the list is compared per inbound message. */
export const MAX_KEYWORDS = 50;
export const MAX_KEYWORD_LENGTH = 40;

/**
 * A message or keyword as compared: NFKD with combining marks removed (accents), lower case, every
 * run of characters that are not letters or digits turned into one space, trimmed.
 */
export function normalizeKeyword(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export type KeywordMatch = "opt_out" | "opt_in" | null;

/** Which list the message is, alone, a keyword of; opt-out wins if a word is on both. */
export function matchKeyword(
  text: string,
  lists: { optOut: readonly string[]; optIn: readonly string[] },
): KeywordMatch {
  // Longer than any keyword can be: not a keyword, and not worth normalising.
  if (text.length > MAX_KEYWORD_LENGTH * 4) return null;
  const said = normalizeKeyword(text);
  if (said === "") return null;
  if (lists.optOut.some((word) => normalizeKeyword(word) === said)) return "opt_out";
  if (lists.optIn.some((word) => normalizeKeyword(word) === said)) return "opt_in";
  return null;
}

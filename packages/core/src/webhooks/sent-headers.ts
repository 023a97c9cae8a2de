/** What the history shows in place of a signature. */
export const REDACTED = "<redacted>";

/**
 * The headers an attempt went out with, as the delivery history keeps them: every signature value
 * redacted, its scheme, version tags and timestamp kept (`t=1700000000,v1=<redacted>`,
 * `v1,<redacted>`). A signature can't reveal the secret, but it is a credential for the one
 * request it signs: anyone with `webhooks:read` could replay that request to the receiver within
 * its timestamp tolerance, and a receiver that doesn't dedupe on the event id would act twice.
 * What an operator needs to debug a refusal (which headers, which scheme, how many signatures,
 * which timestamp) stays visible.
 */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = /signature$/i.test(name) ? value.replace(/\b(v\d+[=,])[^,\s]+/g, `$1${REDACTED}`) : value;
  return out;
}

/** The `error` object of a Graph API answer, as the WhatsApp Cloud API sends it. */
export interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_data?: { details?: string };
  fbtrace_id?: string;
}

/**
 * What the provider's refusal means in plain words, for the codes a first message meets when the
 * WhatsApp Business Account is not set up yet. This text becomes the lead's `outbound.reason`, which
 * the CRM and the console show, so it says what to fix; the provider's own words follow it.
 */
const PLAIN_WORDS: Record<number, (template: { name: string; language: string } | undefined) => string> = {
  132001: (t) =>
    `the message template${t ? ` "${t.name}" in language "${t.language}"` : ""} does not exist or is not approved on this WhatsApp Business Account: create it in WhatsApp Manager and wait for its approval`,
  132000: (t) =>
    `the approved template${t ? ` "${t.name}"` : ""} expects a different number of body parameters than were sent: make the template and leadIntake.firstMessage agree`,
  131008: () => "a template parameter was empty, which the Cloud API refuses",
  190: () => "the access token is invalid or expired: issue a new one for the WhatsApp Business Account",
};

/** `WhatsApp Cloud API error 400 (code 132001): <plain words> (provider: "(#132001) …: details")`. */
export function describeGraphError(
  status: number,
  statusText: string,
  error: GraphError | undefined,
  template?: { name: string; language: string },
): string {
  const provider = [error?.message ?? statusText, error?.error_data?.details].filter(Boolean).join(": ");
  const code = error?.code;
  const plain = code === undefined ? undefined : PLAIN_WORDS[code]?.(template);
  const head = `WhatsApp Cloud API error ${status}${code ? ` (code ${code})` : ""}`;
  return plain === undefined ? `${head}: ${provider}` : `${head}: ${plain} (provider: "${provider}")`;
}

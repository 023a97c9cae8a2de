/**
 * The provider's error codes a sender meets most, in plain words, and whether each means the
 * person opted out. Meta reports errors with the send's answer, by a `failed` status webhook, or
 * both. Only 131050 is an opt-out: the others are about the window, the number, or the template.
 */
export interface WhatsAppErrorMeaning {
  /** What happened, for a person reading the thread. */
  plain: string;
  /** True only for 131050: the person stopped marketing messages from this business number. */
  optOut: boolean;
}

export const WHATSAPP_ERROR_MEANINGS: Record<number, WhatsAppErrorMeaning> = {
  131047: {
    plain:
      "the 24-hour customer-service window is closed (the person has not written in the last 24 hours): send an approved template instead",
    optOut: false,
  },
  131026: {
    plain:
      "undeliverable: the number is not on WhatsApp, has not accepted the current terms, runs an old app, or blocked the business",
    optOut: false,
  },
  131050: {
    plain: "the person stopped marketing messages from this business on WhatsApp: recorded as an opt-out",
    optOut: true,
  },
  130472: {
    plain:
      "held back: WhatsApp keeps this number out of marketing messages as part of an experiment (not an opt-out; do not retry now)",
    optOut: false,
  },
  131049: {
    plain:
      "not delivered to keep engagement healthy: WhatsApp limits marketing messages per person (not an opt-out; wait at least a day)",
    optOut: false,
  },
  132015: {
    plain: "the template is paused for low quality: fix the template (this is not about the person)",
    optOut: false,
  },
};

/** The plain-words reason of a provider failure: the known meaning, else the provider's own title. */
export function describeWhatsAppFailure(code: number | null, title: string | null): string {
  const known = code === null ? undefined : WHATSAPP_ERROR_MEANINGS[code];
  if (known !== undefined) return `WhatsApp error ${code}: ${known.plain}`;
  if (code !== null) return `WhatsApp error ${code}${title ? `: ${title}` : ""}`;
  return title ? `WhatsApp reported a failure: ${title}` : "WhatsApp reported a failure without a reason";
}

export const MARKETING_OPT_OUT_CODE = 131050;

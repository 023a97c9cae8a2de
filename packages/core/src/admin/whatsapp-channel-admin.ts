import { ConflictError, isVitrinaError, NotFoundError, ValidationError, type FieldReason } from "../errors.js";
import type {
  WhatsAppChannelInput,
  WhatsAppChannelService,
  WhatsAppChannelView,
} from "../channels/whatsapp/channel-service.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";

/** The body's snake_case fields and the service's names for them: the service validates, this only renames. */
const FIELDS = {
  phone_number_id: "phoneNumberId",
  access_token: "accessToken",
  app_secret: "appSecret",
  verify_token: "verifyToken",
  graph_base_url: "graphBaseUrl",
  api_version: "apiVersion",
  opt_out_keywords: "optOutKeywords",
  opt_in_keywords: "optInKeywords",
} as const satisfies Record<string, keyof WhatsAppChannelInput>;
type BodyField = keyof typeof FIELDS;
const BODY_FIELD_OF = new Map<string, string>(Object.entries(FIELDS).map(([snake, camel]) => [camel, snake]));

const invalid = (reasons: FieldReason[]) => new ValidationError("WhatsApp channel is invalid", reasons);

/** The service's input from a JSON body, refusing what isn't an object and every unknown key (as the other admin bodies do). */
function channelInput(workspaceId: string, body: unknown): WhatsAppChannelInput {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid([{ field: "", reason: "must be a JSON object" }]);
  const unknown = Object.keys(body).filter((key) => !Object.hasOwn(FIELDS, key));
  if (unknown.length > 0) throw invalid(unknown.map((field) => ({ field, reason: "is not a recognised field" })));
  const input: Record<string, unknown> = { workspaceId };
  for (const [key, value] of Object.entries(body)) input[FIELDS[key as BodyField]] = value;
  return input as WhatsAppChannelInput;
}

/** `optOutKeywords.2` → `opt_out_keywords.2`: the service names fields as its callers in code write them. */
function bodyField(field: string): string {
  const [head = "", ...rest] = field.split(".");
  return [BODY_FIELD_OF.get(head) ?? head, ...rest].join(".");
}

/**
 * The service's refusals in the body's words: validation reasons name snake_case fields, and a
 * phone number id another workspace holds (the storage's `conflict`, which names no field) is a 409
 * naming `phone_number_id`.
 */
function inBodyTerms(error: unknown): unknown {
  if (!isVitrinaError(error)) return error;
  if (error.code === "invalid_payload")
    return new ValidationError(
      error.message,
      error.reasons.map((r) => ({ field: bodyField(r.field), reason: r.reason })),
      { cause: error },
    );
  if (error.code === "conflict")
    return new ConflictError(error.message, {
      reasons: [{ field: "phone_number_id", reason: "is already connected to another workspace" }],
      cause: error,
    });
  return error;
}

/**
 * The workspace's WhatsApp channel for the admin API: members read, owners and admins set and
 * remove. Secrets never come back; a verify token Vitrina generated is returned by `put` once.
 */
export function createWhatsAppChannelAdmin(deps: { channels: WhatsAppChannelService }) {
  const { channels } = deps;
  return {
    async get(caller: AdminCaller): Promise<WhatsAppChannelView> {
      const channel = await channels.get(caller.workspaceId);
      if (channel === null)
        throw new NotFoundError(
          "this workspace has no WhatsApp channel yet; set one up with PUT /v1/whatsapp-channel (phone_number_id, app_secret)",
        );
      return channel;
    },

    /** Creates or changes the channel; `created` tells a 201 from a 200. */
    async put(
      caller: AdminCaller,
      body: unknown,
    ): Promise<{ channel: WhatsAppChannelView; verifyToken: string | null; created: boolean }> {
      requireManager(caller, "set up the WhatsApp channel");
      const input = channelInput(caller.workspaceId, body);
      // Read first only to answer 201 or 200: two creations racing both say 201, and the store keeps one channel.
      const created = (await channels.get(caller.workspaceId)) === null;
      try {
        return { ...(await channels.put(input)), created };
      } catch (error) {
        throw inBodyTerms(error);
      }
    },

    async remove(caller: AdminCaller): Promise<void> {
      requireManager(caller, "remove the WhatsApp channel");
      await channels.remove(caller.workspaceId);
    },
  };
}
export type WhatsAppChannelAdmin = ReturnType<typeof createWhatsAppChannelAdmin>;

import { z } from "zod";
import { reasonsFromZod } from "../validation.js";
import { A2A_ERROR_CODE, A2aFailure, invalidParams } from "./a2a-errors.js";

const JSON_MEDIA_TYPE = "application/json";
const metadataObject = z.record(z.string(), z.unknown());

/**
 * `SendMessage`'s params in A2A v1.0's ProtoJSON form. Fields A2A defines but this surface has no
 * use for (`configuration`, `tenant`, `extensions`) are accepted and ignored, as a v1.0 peer may
 * send them; what the call is made of is checked strictly below.
 */
const sendMessageParams = z.object({
  tenant: z.string().optional(),
  message: z.object({
    messageId: z.string().min(1).max(255),
    role: z.literal("ROLE_USER", { error: "must be ROLE_USER: the caller speaks for the user" }),
    parts: z.array(metadataObject),
    contextId: z.string().max(255).optional(),
    taskId: z.string().max(255).optional(),
    metadata: metadataObject.optional(),
    extensions: z.array(z.string()).optional(),
    referenceTaskIds: z.array(z.string()).optional(),
  }),
  configuration: metadataObject.optional(),
  metadata: metadataObject.optional(),
});

/** The one data part: which capability, and its input (an absent input is `{}`). */
const capabilityCall = z.strictObject({
  capability: z.string().min(1).max(200),
  input: z.unknown().optional(),
});

/** A part's content is one of these members (A2A v1.0 `Part.content`). */
const CONTENT_KINDS = ["data", "text", "url", "raw"] as const;

export interface CapabilityCall {
  capability: string;
  input: unknown;
  idempotencyKey: string | undefined;
  /** The conversation the reply belongs to: the caller's, when it named one. */
  contextId: string | undefined;
}

const prefixed = (prefix: string, error: z.ZodError) =>
  reasonsFromZod(error).map((r) => ({ field: r.field === "" ? prefix : `${prefix}.${r.field}`, reason: r.reason }));

/** The capability call a `SendMessage` carries, or the A2A error that says what is wrong with it. */
export function capabilityCallOf(params: unknown): CapabilityCall {
  const parsed = sendMessageParams.safeParse(params);
  if (!parsed.success) throw invalidParams("SendMessage params are invalid", reasonsFromZod(parsed.error));
  const { message } = parsed.data;
  // This agent keeps no tasks: a message continuing one names a task that does not exist here.
  if (message.taskId !== undefined && message.taskId !== "")
    throw new A2aFailure(
      A2A_ERROR_CODE.TASK_NOT_FOUND,
      `no task ${message.taskId}: this agent answers with messages, never tasks`,
      {
        code: "not_found",
      },
    );
  const [part, ...others] = message.parts;
  if (part === undefined || others.length > 0)
    throw invalidParams("a message holds exactly one data part", [
      {
        field: "message.parts",
        reason: `must hold exactly one part { data: { capability, input } } (got ${message.parts.length})`,
      },
    ]);
  const kinds = CONTENT_KINDS.filter((kind) => part[kind] !== undefined && part[kind] !== null);
  if (kinds.length !== 1 || kinds[0] !== "data")
    throw new A2aFailure(A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, "this agent reads one JSON data part", {
      reasons: [
        {
          field: "message.parts[0]",
          reason: `must be a data part (got ${kinds.length === 0 ? "no content" : kinds.join(", ")})`,
        },
      ],
    });
  if (part.mediaType !== undefined && part.mediaType !== "" && part.mediaType !== JSON_MEDIA_TYPE)
    throw new A2aFailure(A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, "this agent reads application/json data parts", {
      reasons: [{ field: "message.parts[0].mediaType", reason: `must be ${JSON_MEDIA_TYPE} or absent` }],
    });
  const call = capabilityCall.safeParse(part.data);
  if (!call.success)
    throw invalidParams("the data part is not a capability call", prefixed("message.parts[0].data", call.error));
  const key = message.metadata?.idempotencyKey;
  if (key !== undefined && typeof key !== "string")
    throw invalidParams("the idempotency key is not a string", [
      { field: "message.metadata.idempotencyKey", reason: "must be a string of 1 to 255 characters" },
    ]);
  return {
    capability: call.data.capability,
    input: call.data.input ?? {},
    idempotencyKey: key,
    contextId: message.contextId === "" ? undefined : message.contextId,
  };
}

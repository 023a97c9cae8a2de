/** What a call came to, comparable across surfaces: the output, or the stable Vitrina code of the refusal. */
export type Outcome = { ok: true; output: unknown } | { ok: false; code: string };

/** The Vitrina code in an A2A error's `data` (its google.rpc.ErrorInfo's `metadata.code`). */
export function vitrinaCodeOf(data: unknown): string | undefined {
  if (!Array.isArray(data)) return undefined;
  const info = data.find((d) => d?.["@type"] === "type.googleapis.com/google.rpc.ErrorInfo");
  return info?.metadata?.code;
}

/** The field paths of an A2A error's BadRequest detail. */
export function fieldsOf(data: unknown): string[] {
  if (!Array.isArray(data)) return [];
  const badRequest = data.find((d) => d?.["@type"] === "type.googleapis.com/google.rpc.BadRequest");
  return (badRequest?.fieldViolations ?? []).map((v: { field: string }) => v.field);
}

/** An official-client call's outcome: the reply's data part, or the code the SDK's thrown error carries. */
export async function a2aOutcome(reply: Promise<unknown>): Promise<Outcome> {
  try {
    const message = (await reply) as { parts: Array<{ content?: { $case: string; value: unknown } }> };
    const content = message.parts[0]?.content;
    if (content?.$case !== "data") throw new Error(`reply without a data part: ${JSON.stringify(message)}`);
    return { ok: true, output: content.value };
  } catch (error) {
    const code = vitrinaCodeOf((error as { data?: unknown }).data);
    if (code === undefined) throw error;
    return { ok: false, code };
  }
}

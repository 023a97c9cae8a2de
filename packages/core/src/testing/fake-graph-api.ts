/** A message template the fake Cloud API knows as approved: its name, language and number of body parameters. */
export interface ApprovedTemplate {
  name: string;
  language: string;
  bodyParameters: number;
}

/** What the fake Cloud API accepted: the request body as sent, and the id it answered with. */
export interface GraphApiSend {
  url: string;
  authorization: string | null;
  body: Record<string, any>;
  wamid: string;
}

/** The template a default Vitrina sends: `vitrina_welcome`, Spanish, one body parameter (the name). */
export const WELCOME_TEMPLATE: ApprovedTemplate = { name: "vitrina_welcome", language: "es", bodyParameters: 1 };

/**
 * A stand-in for the Cloud API's `POST /{version}/{phone number id}/messages`, as a `fetch` (pass it
 * to `whatsAppCloudTransport({ fetch })` or `createVitrina({ whatsapp: { fetch } })`). It accepts
 * template messages only for `templates` (approved ones) and refuses the rest with the provider's
 * own error bodies: 132001 for a template missing in that language, 132000 for a wrong parameter
 * count, 131008 for an empty text parameter. Free-form text is accepted.
 */
export function fakeGraphApi(options: { phoneNumberId: string; templates?: ApprovedTemplate[]; nextId: () => string }) {
  const templates = options.templates ?? [WELCOME_TEMPLATE];
  const sent: GraphApiSend[] = [];
  const refused: Array<{ body: Record<string, any>; code: number }> = [];

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method !== "POST" || !new RegExp(`^/v\\d+\\.\\d+/${options.phoneNumberId}/messages$`).test(path))
      return graphError(400, 100, "Unsupported post request.", `no such path ${path}`);
    const body = (await request.json()) as Record<string, any>;
    const problem = body.type === "template" ? templateProblem(body.template) : null;
    if (problem !== null) {
      refused.push({ body, code: problem.code });
      return graphError(400, problem.code, problem.title, problem.details);
    }
    const wamid = options.nextId();
    sent.push({ url: request.url, authorization: request.headers.get("authorization"), body, wamid });
    return Response.json({
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: wamid, message_status: "accepted" }],
    });
  };

  function templateProblem(template: any): { code: number; title: string; details: string } | null {
    const name = String(template?.name);
    const language = String(template?.language?.code);
    const approved = templates.find((t) => t.name === name && t.language === language);
    if (approved === undefined)
      return {
        code: 132001,
        title: "Template name does not exist in the translation",
        details: `template name (${name}) does not exist in ${language}`,
      };
    const body = (template.components ?? []).find((c: any) => c.type === "body");
    const parameters: any[] = body?.parameters ?? [];
    if (parameters.some((p) => p.type === "text" && (typeof p.text !== "string" || p.text === "")))
      return {
        code: 131008,
        title: "Required parameter is missing",
        details: "Parameter of type text is missing text value",
      };
    if (parameters.length !== approved.bodyParameters)
      return {
        code: 132000,
        title: "Number of parameters does not match the expected number of params",
        details: `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${approved.bodyParameters})`,
      };
    return null;
  }

  return { fetch: fetch as typeof globalThis.fetch, sent, refused };
}

/** The Graph API's error body: `(#code) title`, `OAuthException`, and the WhatsApp details. */
function graphError(status: number, code: number, title: string, details: string): Response {
  return Response.json(
    {
      error: {
        message: `(#${code}) ${title}`,
        type: "OAuthException",
        code,
        error_data: { messaging_product: "whatsapp", details },
        fbtrace_id: "AbCdEfGhIjKlMnOp",
      },
    },
    { status },
  );
}

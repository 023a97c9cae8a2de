import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MessagingError, whatsAppCloudTransport } from "@vitrina/core";

const GRAPH = "https://graph.facebook.com/v21.0/1234567890/messages";
const mock = setupServer();
beforeAll(() => mock.listen({ onUnhandledRequest: "error" }));
afterEach(() => mock.resetHandlers());
afterAll(() => mock.close());

const transport = whatsAppCloudTransport({ accessToken: "EAAtoken", phoneNumberId: "1234567890" });
const message = {
  channel: "whatsapp" as const,
  to: "+56912345678",
  template: { name: "vitrina_welcome", language: "es", bodyParameters: ["María"] },
};

describe("WhatsApp Cloud API transport", () => {
  it("posts a template message with the access token and returns the message id", async () => {
    let received: { auth: string | null; body: unknown } | undefined;
    mock.use(
      http.post(GRAPH, async ({ request }) => {
        received = { auth: request.headers.get("authorization"), body: await request.json() };
        return HttpResponse.json({
          messaging_product: "whatsapp",
          messages: [{ id: "wamid.ABC", message_status: "accepted" }],
        });
      }),
    );
    // `accepted` only means the Cloud API took it: sent, delivered and read come later by webhook.
    expect(await transport.send(message)).toEqual({ status: "queued", providerMessageId: "wamid.ABC" });
    expect(received?.auth).toBe("Bearer EAAtoken");
    expect(received?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "56912345678",
      type: "template",
      template: {
        name: "vitrina_welcome",
        language: { code: "es" },
        components: [{ type: "body", parameters: [{ type: "text", text: "María" }] }],
      },
    });
  });

  it("reports queued when the provider holds the message", async () => {
    mock.use(
      http.post(GRAPH, () =>
        HttpResponse.json({ messages: [{ id: "wamid.Q", message_status: "held_for_quality_assessment" }] }),
      ),
    );
    expect(await transport.send(message)).toEqual({ status: "queued", providerMessageId: "wamid.Q" });
  });

  it("turns a Graph API error into a MessagingError with code and message", async () => {
    mock.use(
      http.post(GRAPH, () =>
        HttpResponse.json(
          { error: { message: "(#131030) Recipient phone number not in allowed list", code: 131030 } },
          { status: 400 },
        ),
      ),
    );
    const error = await transport.send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessagingError);
    expect((error as MessagingError).message).toBe(
      "WhatsApp Cloud API error 400 (code 131030): (#131030) Recipient phone number not in allowed list",
    );
  });

  it("turns a network failure into a MessagingError", async () => {
    mock.use(http.post(GRAPH, () => HttpResponse.error()));
    await expect(transport.send(message)).rejects.toMatchObject({ code: "messaging_failed" });
  });

  it("sends free text inside the service window", async () => {
    let body: any;
    mock.use(
      http.post(
        GRAPH,
        async ({ request }) => ((body = await request.json()), HttpResponse.json({ messages: [{ id: "wamid.T" }] })),
      ),
    );
    await transport.send({ channel: "whatsapp", to: "+56912345678", text: "hola" });
    expect(body).toMatchObject({ type: "text", text: { body: "hola" } });
  });
});

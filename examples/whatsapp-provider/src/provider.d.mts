// Types for provider.mjs, so the TypeScript tests and the bench import it checked.
export interface StatusReportInput {
  id: string;
  status: "sent" | "delivered" | "read" | "failed";
  phoneE164: string;
  at?: Date;
  error?: { code: number; title: string };
}
export interface WebhookBatch {
  object: "whatsapp_business_account";
  entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, unknown> }> }>;
}
export function waIdOf(phoneE164: string): string;
export function newWamid(): string;
export function webhookBatch(phoneNumberId: string, value: Record<string, unknown>): WebhookBatch;
export function statusReport(input: StatusReportInput): Record<string, unknown>;
export function statusBatch(phoneNumberId: string, reports: StatusReportInput[]): WebhookBatch;
export function textBatch(
  phoneNumberId: string,
  message: { phoneE164: string; text: string; name?: string; id?: string; at?: Date },
): WebhookBatch;
export function hubSignature(body: string, appSecret: string): string;
export function postWebhook(url: string, appSecret: string, batch: unknown): Promise<{ status: number; body: any }>;

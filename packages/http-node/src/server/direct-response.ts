import { delegateToWeb } from "./delegate-to-web.js";

const BODY = Symbol("body");
const WEB = Symbol("web response");

/**
 * The answer core builds through a direct request's `RESPOND` (see core's `direct-body.ts`):
 * status, real Headers (core's request-id layer sets one) and the body as text, which
 * `writeWebResponse` writes as it is, with no web stream to build and read. Anything else asked of
 * it is answered by a real Response made from the same parts on first use; from then on that one
 * is what gets written.
 */
export class DirectResponse {
  readonly status: number;
  readonly statusText = "";
  readonly headers: Headers;
  readonly [BODY]: string;
  [WEB]: Response | undefined;

  constructor(status: number, headers: Record<string, string>, body: string) {
    this.status = status;
    this.headers = new Headers(headers);
    this[BODY] = body;
  }
}
delegateToWeb(
  DirectResponse.prototype,
  Response.prototype,
  (self: DirectResponse) => (self[WEB] ??= new Response(self[BODY], { status: self.status, headers: self.headers })),
  ["status", "statusText", "headers"],
);

/**
 * A DirectResponse's text while nothing made its real Response; undefined otherwise (then the
 * Response is written the usual way: its body is the real Response's, its headers its own).
 */
export function unbuiltText(response: Response): string | undefined {
  return response instanceof DirectResponse && response[WEB] === undefined ? response[BODY] : undefined;
}

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

/** What `writeWebResponse` writes for `response`: a DirectResponse's text, or its real Response once made. */
export function directBodyOf(response: Response): { text: string } | { web: Response } | undefined {
  if (!(response instanceof DirectResponse)) return undefined;
  const self = response as DirectResponse;
  return self[WEB] === undefined ? { text: self[BODY] } : { web: self[WEB] };
}

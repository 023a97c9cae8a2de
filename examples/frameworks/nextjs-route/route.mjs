// A Next.js App Router route handler: save as `app/vitrina/[...path]/route.js` (and the same for
// `app/.well-known/[...path]/route.js` when OAuth is on), with `vitrina` built once in a module
// of your app and `basePath: "/vitrina"`. Next hands route handlers a web Request and sends the
// Response they return, which is exactly Vitrina's handler's shape: nothing to adapt.
//
//   import { vitrina } from "@/lib/vitrina";
//   export const runtime = "nodejs";            // Vitrina needs Node (or Bun/Deno), not the edge runtime's limits
//   export const dynamic = "force-dynamic";     // never cache: every answer depends on the request
//   export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = vitrinaRouteHandlers(vitrina);

/** One exported function per HTTP method, each `(request: Request) => Promise<Response>`. */
export function vitrinaRouteHandlers(vitrina) {
  const handle = (request) => vitrina.handler(request);
  return { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
}

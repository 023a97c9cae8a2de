import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from "./server/listener.js";

export interface VitrinaFastifyOptions extends NodeListenerOptions {
  /** The Vitrina to serve (its `handler`); create it with the same `basePath` as the `prefix`. */
  vitrina: { handler: FetchHandler };
}

/**
 * A Fastify 5 plugin serving Vitrina under the `prefix` it is registered with:
 *
 * ```ts
 * await app.register(vitrinaFastify, { vitrina, prefix: "/vitrina" });
 * ```
 *
 * Inside its prefix it replaces every content-type parser with one that reads nothing, and hands
 * the untouched Node request to Vitrina: a lead's signature is computed over the exact bytes
 * sent, so a body parsed and re-serialised by Fastify would no longer verify. Parsers are
 * encapsulated per plugin, so the app's own routes keep Fastify's JSON parsing. With OAuth on,
 * route `vitrina.wellKnownPaths` in the app too: the discovery documents live at the origin root,
 * outside the prefix every route of the plugin carries (see "Mount it in your framework").
 */
export const vitrinaFastify: FastifyPluginAsync<VitrinaFastifyOptions> = async (fastify, options) => {
  const listener = toNodeListener(options.vitrina.handler, {
    maxBodySize: options.maxBodySize,
    onError: options.onError,
  });
  fastify.removeAllContentTypeParsers();
  // Leave the stream unread; Vitrina reads and limits it itself.
  fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  const serveRaw = async (request: FastifyRequest, reply: FastifyReply) => {
    // Vitrina writes the response on the raw socket; Fastify must not write a second one.
    reply.hijack();
    listener(request.raw, reply.raw);
  };
  fastify.all("/", serveRaw);
  fastify.all("/*", serveRaw);
};

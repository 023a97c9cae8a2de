import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import { bodyAlreadyRead, bodyAlreadyReadResponse, MOUNT_BEFORE_BODY_PARSERS } from "./consumed-body.js";
import { acceptsDirectBody } from "./direct-body.js";
import { shuttingDownResponse } from "./json.js";
import type { Mount } from "./mount.js";
import { withRequestId, type ContextualHandler } from "./request-context.js";
import type { Handler } from "./router.js";

/**
 * What every request goes through before the router: a request id on every response (the 503
 * while closing too) and a logger bound to it; 503 `shutting_down` once `isClosing()`; 500
 * `body_already_consumed` when middleware in front already read the body, logged with the fix.
 */
export function withRequestPrelude(
  router: ContextualHandler,
  deps: { ids: IdGenerator; logger: Logger; mount: Mount; isClosing: () => boolean },
): Handler {
  return acceptsDirectBody(
    withRequestId(
      async (request, context) => {
        if (deps.isClosing()) return shuttingDownResponse();
        if (bodyAlreadyRead(request)) {
          const path = deps.mount.routePath(new URL(request.url).pathname);
          (context?.logger ?? deps.logger).error(
            { code: "body_already_consumed", method: request.method, path },
            MOUNT_BEFORE_BODY_PARSERS,
          );
          return bodyAlreadyReadResponse(context?.requestId);
        }
        return router(request, context);
      },
      { ids: deps.ids, logger: deps.logger },
    ),
  );
}

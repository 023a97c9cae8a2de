export { serve, type RunningServer, type ServeOptions } from "./server/serve.js";
export {
  toNodeListener,
  BodyAlreadyConsumedError,
  DEFAULT_MAX_BODY_SIZE,
  type FetchHandler,
  type NodeListenerOptions,
} from "./server/listener.js";
export { toWebRequest, BodyTooLargeError } from "./server/node-request.js";
export { writeWebResponse } from "./server/node-response.js";
export {
  nodeHostResolver,
  createNodeHostResolver,
  type NodeHostResolverOptions,
  type LookupAllPromise,
} from "./network/host-resolver.js";
export { startWorker, type StartWorkerOptions, type RunningWorker } from "./process/worker.js";
export { serveVitrina, type ServeVitrinaOptions } from "./process/serve-vitrina.js";
export {
  storageFromEnv,
  secretKeyFromEnv,
  secretKeyRequiredMessage,
  type ConfiguredStorage,
  type StorageFromEnvOptions,
} from "./config/storage-from-env.js";
export { guardedLookup, pinnedFetch, type LookupAll } from "./network/pinned-fetch.js";
export { nodeWebhookOptions } from "./network/node-webhook-options.js";
export { nodeWhatsAppOptions } from "./network/node-whatsapp-options.js";
export { pinnedSender } from "./network/pinned-sender.js";
export {
  defineConfig,
  findConfigFile,
  loadConfigFile,
  type VitrinaConfig,
  type VitrinaConfigExport,
} from "./config/config-file.js";
export { shutdownOnSignal, type ShutdownOnSignalOptions } from "./process/shutdown-on-signal.js";

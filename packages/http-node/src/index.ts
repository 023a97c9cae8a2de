export { serve, type RunningServer, type ServeOptions } from "./serve.js";
export {
  toNodeListener,
  BodyAlreadyConsumedError,
  DEFAULT_MAX_BODY_SIZE,
  type FetchHandler,
  type NodeListenerOptions,
} from "./listener.js";
export { toWebRequest, BodyTooLargeError } from "./node-request.js";
export { writeWebResponse } from "./node-response.js";
export {
  nodeHostResolver,
  createNodeHostResolver,
  type NodeHostResolverOptions,
  type LookupAllPromise,
} from "./host-resolver.js";
export { startWorker, type StartWorkerOptions, type RunningWorker } from "./worker.js";
export { serveVitrina, type ServeVitrinaOptions } from "./serve-vitrina.js";
export {
  storageFromEnv,
  secretKeyFromEnv,
  secretKeyRequiredMessage,
  type ConfiguredStorage,
  type StorageFromEnvOptions,
} from "./storage-from-env.js";
export { guardedLookup, pinnedFetch, type LookupAll } from "./pinned-fetch.js";
export { nodeWebhookOptions } from "./node-webhook-options.js";
export { nodeWhatsAppOptions } from "./node-whatsapp-options.js";
export { pinnedSender } from "./pinned-sender.js";
export {
  defineConfig,
  findConfigFile,
  loadConfigFile,
  type VitrinaConfig,
  type VitrinaConfigExport,
} from "./config-file.js";
export { shutdownOnSignal, type ShutdownOnSignalOptions } from "./shutdown-on-signal.js";

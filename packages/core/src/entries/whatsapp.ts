// @vitrina/core/whatsapp: the WhatsApp channel's pieces for embedders and tools: the Cloud API
// transport, the webhook's path and signature rules, opt-out keywords, error codes in plain words.
export {
  fetchGraphPost,
  whatsAppCloudTransport,
  type GraphPost,
  type GraphPostRequest,
  type WhatsAppCloudOptions,
} from "../messaging/whatsapp-cloud.js";
export { WHATSAPP_WEBHOOK_PATH, DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT } from "../channels/whatsapp/webhook-route.js";
export { SIGNATURE_HEADER, escapeNonAscii } from "../channels/whatsapp/webhook-signature.js";
export {
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  matchKeyword,
  normalizeKeyword,
} from "../channels/whatsapp/keywords.js";
export {
  WHATSAPP_ERROR_MEANINGS,
  describeWhatsAppFailure,
  type WhatsAppErrorMeaning,
} from "../channels/whatsapp/error-codes.js";
export { STATUS_RANK, deliveryStatusOf } from "../channels/whatsapp/delivery-status.js";
export { SERVICE_WINDOW_MS, serviceWindow } from "../channels/whatsapp/service-window.js";
export { outboundStateOf } from "../channels/whatsapp/outbound-state.js";
export {
  DEFAULT_GRAPH_API_VERSION,
  DEFAULT_GRAPH_BASE_URL,
  channelView,
  type WhatsAppChannelInput,
  type WhatsAppChannelService,
  type WhatsAppChannelView,
} from "../channels/whatsapp/channel-service.js";

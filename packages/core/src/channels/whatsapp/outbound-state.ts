import type { DeliveryState, OutboundStatus } from "../../ports/records.js";
import { describeWhatsAppFailure } from "./error-codes.js";

/**
 * A first message's status and reason as users see them: what Vitrina decided (`queued`,
 * `blocked`, `failed` at send), moved forward by the provider's delivery reports once one arrived
 * (`sent`, `delivered`, `read`, or `failed` with the error in plain words). Reports only ever move
 * a message forward (see `delivery-status.ts`).
 */
export function outboundStateOf(outbound: {
  status: OutboundStatus;
  reason: string | null;
  delivery?: DeliveryState;
}): { status: OutboundStatus; reason: string | null } {
  const { delivery } = outbound;
  if (delivery === undefined || (outbound.status !== "queued" && outbound.status !== "sent"))
    return { status: outbound.status, reason: outbound.reason };
  if (delivery.status === "failed")
    return { status: "failed", reason: describeWhatsAppFailure(delivery.failureCode, delivery.failureTitle) };
  return { status: delivery.status, reason: null };
}

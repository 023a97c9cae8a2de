import { type DestinationPolicy } from "@vitrina/core";
import { nodeHostResolver } from "./host-resolver.js";
import { pinnedSender } from "./pinned-sender.js";

type Policy = Pick<DestinationPolicy, "allowInsecureLoopback" | "allowPrivateNetworks">;

/**
 * Webhook options for Node: the policy, DNS checks before delivering (`nodeHostResolver`) and
 * deliveries sent by `pinnedSender`, whose sockets are checked again at connect time. The one way to
 * set up webhooks on Node:
 *
 * ```ts
 * createVitrina({ ..., webhooks: nodeWebhookOptions({ allowInsecureLoopback: false }) });
 * ```
 */
export function nodeWebhookOptions(policy: Partial<Policy> = {}) {
  const resolved = {
    allowInsecureLoopback: policy.allowInsecureLoopback ?? false,
    allowPrivateNetworks: policy.allowPrivateNetworks ?? false,
  };
  return { ...resolved, resolveHost: nodeHostResolver, send: pinnedSender(resolved) };
}

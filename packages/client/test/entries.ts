import { readFileSync } from "node:fs";
import * as nodeEntry from "../src/node.js";
import * as portableEntry from "../src/index.js";

/** Every behaviour test runs against both entries: they must be indistinguishable. */
export const entries = [
  ["node:crypto entry", nodeEntry],
  ["portable @noble/hashes entry", portableEntry],
] as const;

export interface SignatureVector {
  name: string;
  secret: string;
  timestamp: string;
  body: string;
  signature: string;
}

export const vectors: SignatureVector[] = JSON.parse(
  readFileSync(new URL("./signature-vectors.json", import.meta.url), "utf8"),
).cases;

export const orderConfirmed = {
  id: "evt_01",
  type: "order.confirmed",
  created: "2025-01-01T00:00:00.000Z",
  data: {
    order_id: "ord_1",
    contact_id: "ct_1",
    total: 125000,
    currency: "CLP",
    decided_by: "agent_1",
    approved_by: "usr_1",
  },
};

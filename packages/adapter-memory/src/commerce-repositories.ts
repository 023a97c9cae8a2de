import { ConflictError, type StorageRepositories } from "@vitrina/core";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

type CommerceRepositories = Pick<StorageRepositories, "quotes" | "orders" | "payments">;

/** Quotes, orders and payments over one memory state; unique rules mirror the SQL schema. */
export function createCommerceRepositories(state: MemoryState, undo: UndoLog): CommerceRepositories {
  return {
    quotes: {
      async insert(quote) {
        state.quotes.insert(quote, undo);
      },
      async get(workspaceId, id) {
        const quote = state.quotes.get(id);
        return quote?.workspaceId === workspaceId ? quote : null;
      },
      async update(quote) {
        return state.quotes.replace(quote, undo);
      },
      async accept(workspaceId, id, at) {
        const current = state.quotes.get(id);
        if (current?.workspaceId !== workspaceId || current.status !== "issued") return null;
        const accepted = { ...current, status: "accepted" as const, acceptedAt: at };
        state.quotes.replace(accepted, undo);
        return accepted;
      },
    },
    orders: {
      async insert(order) {
        if (state.orders.conflictOf(order) !== null) {
          throw new ConflictError("this quote already has an order");
        }
        state.orders.insert(order, undo);
      },
      async get(workspaceId, id) {
        const order = state.orders.get(id);
        return order?.workspaceId === workspaceId ? order : null;
      },
    },
    payments: {
      async insert(payment) {
        if (state.payments.conflictOf(payment) !== null) {
          throw new ConflictError("a payment with this provider reference was already recorded");
        }
        state.payments.insert(payment, undo);
      },
      async listByOrder(orderId) {
        return state.payments
          .filter((p) => p.orderId === orderId)
          .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id));
      },
    },
  };
}

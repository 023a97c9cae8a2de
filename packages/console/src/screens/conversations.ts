import {
  type Clock,
  type ContactRecord,
  type ConversationStatus,
  type MessageRecord,
  NotFoundError,
  type StorageRepositories,
  ValidationError,
} from "@vitrina/core";
import type { ScreenRequest, ScreenRoute } from "../console-guard.js";
import { dataTable, formatTime, type ScreenContext, screenResponse } from "../console-page.js";
import { html } from "../html.js";
import { contactLabel, contactPath, deliveryLine, serviceWindowLine } from "./whatsapp-format.js";

const STATUSES: ConversationStatus[] = ["open", "pending", "closed"];
const LIST_LIMIT = 100;
/** A thread shows its latest messages; older ones stay in storage (and in the REST API). */
const THREAD_LIMIT = 200;

/** Who wrote a message we sent, by the message's `sender`. */
const OUR_SENDERS: Record<string, string> = { agent: "Agent", human: "Team", system: "System" };

type ConversationStorage = Pick<StorageRepositories, "conversations" | "messages" | "contacts">;

/**
 * Conversations: the workspace's conversations by status, and each thread with both sides in time
 * order, the delivery of what we sent, and the 24-hour service window. Read-only, so every role
 * sees the same page.
 */
export function conversationScreens(deps: { storage: ConversationStorage; clock: Clock }): ScreenRoute[] {
  const { storage } = deps;
  const threadPath = (ctx: ScreenContext, id: string) => `${ctx.root}/conversations/${encodeURIComponent(id)}`;

  /** The contacts of a page of conversations, each read once. */
  async function contactsOf(workspaceId: string, ids: string[]): Promise<Map<string, ContactRecord>> {
    const found = await Promise.all([...new Set(ids)].map((id) => storage.contacts.get(workspaceId, id)));
    return new Map(found.filter((c) => c !== null).map((c) => [c.id, c]));
  }

  async function listPage(screen: ScreenRequest) {
    const { caller, ctx, url } = screen;
    const asked = url.searchParams.get("status") ?? "";
    if (asked !== "" && !STATUSES.includes(asked as ConversationStatus))
      throw new ValidationError("unknown conversation status", [
        { field: "status", reason: `must be one of ${STATUSES.join(", ")} (or absent for all)` },
      ]);
    const status = asked === "" ? undefined : (asked as ConversationStatus);
    const conversations = await storage.conversations.listByWorkspace(caller.workspaceId, {
      ...(status && { status }),
      limit: LIST_LIMIT,
    });
    const contacts = await contactsOf(
      caller.workspaceId,
      conversations.map((c) => c.contactId),
    );
    const filters = [{ label: "All", value: "" }, ...STATUSES.map((s) => ({ label: s, value: s }))].map(
      (f) =>
        html`<li>
          <a
            href="${ctx.root}/conversations${f.value === "" ? "" : `?status=${f.value}`}"
            ${f.value === asked ? html` aria-current="page"` : ""}
            >${f.label}</a
          >
        </li>`,
    );
    const rows = conversations.map((c) => {
      const contact = contacts.get(c.contactId);
      return html`<tr>
        <td><a href="${threadPath(ctx, c.id)}">${contact === undefined ? c.contactId : contactLabel(contact)}</a></td>
        <td>${c.channel}</td>
        <td>${c.status}</td>
        <td>${formatTime(c.updatedAt)}</td>
      </tr>`;
    });
    const body = html`<nav aria-label="Filter by status">
        <ul class="filters">
          ${filters}
        </ul>
      </nav>
      ${
        conversations.length === 0
          ? html`<p>
              No ${status === undefined ? "" : `${status} `}conversations yet. A conversation starts when a contact
              writes or a lead gets its first message.
            </p>`
          : dataTable(
              `${status === undefined ? "Conversations" : `Conversations with status ${status}`}, latest activity first`,
              ["Contact", "Channel", "Status", "Last activity"],
              rows,
            )
      }
      ${conversations.length === LIST_LIMIT && html`<p class="muted">Showing the ${LIST_LIMIT} most recently active.</p>`}`;
    return screenResponse(ctx, { title: "Conversations", section: "conversations", body });
  }

  function messageItem(message: MessageRecord, contact: ContactRecord | null) {
    const fromContact = message.sender === "contact";
    const who = fromContact
      ? contact === null
        ? "Contact"
        : contactLabel(contact)
      : (OUR_SENDERS[message.sender] ?? message.sender);
    return html`<li class="msg ${fromContact ? "inbound" : "outbound"}">
      <p class="meta">
        <strong>${who}</strong> · <time datetime="${message.createdAt}">${formatTime(message.createdAt)}</time>
        ${message.replyTo !== undefined && html` · <span class="muted">in reply to <code>${message.replyTo}</code></span>`}
      </p>
      <p class="content">${message.content}</p>
      ${!fromContact && html`<p class="delivery">Delivery: ${deliveryLine(message.delivery, message.providerMessageId)}</p>`}
    </li>`;
  }

  async function threadPage(screen: ScreenRequest) {
    const { caller, ctx, params } = screen;
    const conversation = await storage.conversations.get(caller.workspaceId, params.id!);
    if (conversation === null) throw new NotFoundError(`conversation ${params.id!} does not exist`);
    const contact = await storage.contacts.get(caller.workspaceId, conversation.contactId);
    const newestFirst = await storage.messages.listByConversation(conversation.id, { limit: THREAD_LIMIT });
    const messages = [...newestFirst].reverse();
    const body = html`<dl>
        <dt>Contact</dt>
        <dd>
          ${contact === null ? conversation.contactId : html`<a href="${contactPath(ctx, contact.id)}">${contactLabel(contact)}</a>`}
        </dd>
        <dt>Channel</dt>
        <dd>${conversation.channel}</dd>
        <dt>Status</dt>
        <dd>
          ${conversation.status}${conversation.escalatedAt !== null && ` (handed to a person ${formatTime(conversation.escalatedAt)})`}
        </dd>
        <dt>Started</dt>
        <dd>${formatTime(conversation.createdAt)}</dd>
        <dt>Last activity</dt>
        <dd>${formatTime(conversation.updatedAt)}</dd>
        ${
          conversation.channel === "whatsapp" &&
          contact !== null &&
          html`<dt>24-hour service window</dt>
            <dd id="service-window">${serviceWindowLine(contact, deps.clock.now())}</dd>`
        }
      </dl>
      <h2>Messages</h2>
      ${newestFirst.length === THREAD_LIMIT && html`<p class="muted">Showing the latest ${THREAD_LIMIT} messages.</p>`}
      ${
        messages.length === 0
          ? html`<p>No messages yet.</p>`
          : html`<ol class="thread" aria-label="Messages, oldest first">
              ${messages.map((m) => messageItem(m, contact))}
            </ol>`
      }
      <p><a href="${ctx.root}/conversations">All conversations</a></p>`;
    const title = `Conversation with ${contact === null ? "a removed contact" : contactLabel(contact)}`;
    return screenResponse(ctx, { title, section: "conversations", body });
  }

  return [
    { method: "GET", path: "/conversations", route: "console.conversations", screen: listPage },
    { method: "GET", path: "/conversations/:id", route: "console.conversations.get", screen: threadPage },
  ];
}

import type { ContactRecord } from "../ports/records.js";
import type { PageCursor, PersonalDataKind, PersonalDataRows, Storage } from "../ports/storage.js";

/** The export's `format` and `version`: a change to the shape below bumps the version. */
export const PERSONAL_DATA_FORMAT = "vitrina.personal-data";
export const PERSONAL_DATA_VERSION = 1;

/** The document's arrays in order, each with the kind of rows it holds. */
const SECTIONS: Array<[field: string, kind: PersonalDataKind]> = [
  ["consent", "consent"],
  ["leads", "leads"],
  ["opportunities", "opportunities"],
  ["first_messages", "outbound"],
  ["conversations", "conversations"],
  ["messages", "messages"],
  ["events", "events"],
];

/** The time a kind's pages are ordered by (see `PageCursor`). */
function cursorOf(kind: PersonalDataKind, row: PersonalDataRows[PersonalDataKind]): PageCursor {
  const r = row as unknown as Record<string, string>;
  const at =
    kind === "leads" ? r.receivedAt : kind === "consent" ? r.recordedAt : kind === "events" ? r.created : r.createdAt;
  return { at: at!, id: row.id };
}

/** Rows per storage read: bounds what the export holds in memory at once, whatever the person's history. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The export document as text pieces, one storage page at a time. The shape (documented in
 * docs/interface.md): `format`, `version`, `exported_at`, `workspace_id`, `contact`, then `consent`,
 * `leads`, `opportunities`, `first_messages`, `conversations`, `messages` and `events` (each event
 * with its webhook `deliveries`: status and times). Records carry the fields Vitrina stores, as its
 * storage reads them. Each page is read on its own, so a long export reflects writes made meanwhile.
 */
export async function* exportDocumentPieces(
  storage: Storage,
  contact: ContactRecord,
  exportedAt: string,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<string> {
  const { workspaceId, id: contactId } = contact;
  const head = { format: PERSONAL_DATA_FORMAT, version: PERSONAL_DATA_VERSION, exported_at: exportedAt };
  yield `${JSON.stringify({ ...head, workspace_id: workspaceId }).slice(0, -1)},"contact":${JSON.stringify(contact)}`;
  for (const [field, kind] of SECTIONS) {
    yield `,${JSON.stringify(field)}:[`;
    let cursor: PageCursor | null = null;
    let separator = "";
    for (;;) {
      const page: PersonalDataRows[PersonalDataKind][] = await storage.personalData.exportPage(
        workspaceId,
        contactId,
        kind,
        cursor,
        pageSize,
      );
      if (page.length === 0) break;
      const rows = kind === "events" ? await withDeliveries(storage, workspaceId, page) : page;
      yield separator + rows.map((row) => JSON.stringify(row)).join(",");
      separator = ",";
      if (page.length < pageSize) break;
      cursor = cursorOf(kind, page[page.length - 1]!);
    }
    yield "]";
  }
  yield "}\n";
}

async function withDeliveries(storage: Storage, workspaceId: string, events: PersonalDataRows[PersonalDataKind][]) {
  const deliveries = await storage.personalData.deliveriesOf(
    workspaceId,
    events.map((e) => e.id),
  );
  return events.map((event) => ({ ...event, deliveries: deliveries.filter((d) => d.eventId === event.id) }));
}

/**
 * `pieces` as a byte stream that reads the next page only when the reader asks for more (`pull`), so
 * a slow download holds one page in memory, not the whole history; cancelling stops the reads.
 */
export function streamOf(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}

import { html, type SafeHtml } from "../html.js";

export interface LeadSnippetInput {
  intakeUrl: string;
  connectorId: string;
  /** The secret when it is being shown once; otherwise the snippets read it from the environment. */
  secret: string | null;
  headerNames: { connectorId: string; timestamp: string; signature: string };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A signed test lead as a shell script: HMAC-SHA256 over "<timestamp ms>.<body>", hex, with
 * openssl, then curl. Each run gets its own source_lead_id, so it is never a duplicate.
 */
export function curlSnippet(input: LeadSnippetInput): string {
  const secret = input.secret === null ? `"$VITRINA_CONNECTOR_SECRET"` : shellQuote(input.secret);
  return [
    `SECRET=${secret}`,
    `TS=$(($(date +%s) * 1000))`,
    `BODY=$(printf '{"event":"lead.created","source_lead_id":"console-test-%s","contact":{"phone_e164":"+56912345678","name":"Test lead"}}' "$TS")`,
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')`,
    `curl -sS -X POST ${shellQuote(input.intakeUrl)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`${input.headerNames.connectorId}: ${input.connectorId}`)} \\`,
    `  -H "${input.headerNames.timestamp}: $TS" \\`,
    `  -H "${input.headerNames.signature}: $SIG" \\`,
    `  --data "$BODY"`,
  ].join("\n");
}

/** The embedder's `headerPrefix`, read back from the header names it produced. */
const prefixOf = (input: LeadSnippetInput) =>
  /^X-(.+)-Connector-Id$/.exec(input.headerNames.connectorId)?.[1] ?? "Vitrina";

/** The same lead from Node with `@vitrina/client`, which signs and retries for the sender. */
export function nodeSnippet(input: LeadSnippetInput): string {
  const secret = input.secret === null ? "process.env.VITRINA_CONNECTOR_SECRET" : JSON.stringify(input.secret);
  return [
    // Not on the registry yet: the tarball `pnpm pack:all` writes installs on its own (no peers).
    `// npm install ./vitrina-client-*.tgz   (from \`pnpm pack:all\`; @vitrina/client is not on the npm registry yet)`,
    `import { sendLead } from "@vitrina/client";`,
    ``,
    `const result = await sendLead(${JSON.stringify(input.intakeUrl)}, {`,
    `  connectorId: ${JSON.stringify(input.connectorId)},`,
    `  secret: ${secret},`,
    ...(prefixOf(input) === "Vitrina" ? [] : [`  headerPrefix: ${JSON.stringify(prefixOf(input))},`]),
    `  lead: {`,
    `    event: "lead.created",`,
    `    source_lead_id: \`console-test-\${Date.now()}\`,`,
    `    contact: { phone_e164: "+56912345678", name: "Test lead" },`,
    `  },`,
    `});`,
    `console.log(result);`,
  ].join("\n");
}

export function leadSnippets(input: LeadSnippetInput): SafeHtml {
  const env =
    input.secret === null
      ? html`<p class="muted">Set <code>VITRINA_CONNECTOR_SECRET</code> to the connector's secret first.</p>`
      : html`<p class="muted">These carry the secret shown above.</p>`;
  return html`<h2>Send a test lead</h2>
    ${env}
    <h3>Shell (openssl and curl)</h3>
    <pre id="snippet-curl">${curlSnippet(input)}</pre>
    <button type="button" class="copy secondary" data-copy="snippet-curl" hidden>Copy</button>
    <h3>Node</h3>
    <pre id="snippet-node">${nodeSnippet(input)}</pre>
    <button type="button" class="copy secondary" data-copy="snippet-node" hidden>Copy</button>`;
}

export { mcpRoutes, mcpTools, type McpRouteDependencies } from "./mcp-route.js";
export type { McpOptions, CapabilitySource, QuoteOperations, IssuedQuote, PriceLookup } from "./mcp-options.js";
export {
  staticTokenAuthenticator,
  rejectEveryone,
  type Authenticator,
  type Principal,
  type ScopeRequirement,
} from "../auth/authenticators.js";
export { catalogPriceLookup } from "./catalog-prices.js";
export { MCP_PROTOCOL_VERSION, MCP_SERVER_INFO, ACCEPTED_PROTOCOL_VERSIONS } from "./protocol.js";
export { FINANCIAL_TOOLS_DISABLED_MESSAGE } from "./quote-tool.js";
export type { ToolDefinition } from "./tool-definition.js";

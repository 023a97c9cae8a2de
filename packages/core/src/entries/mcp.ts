// @vitrina/core/mcp: the MCP server's routes, tools and authenticators.
export * from "../mcp/index.js";

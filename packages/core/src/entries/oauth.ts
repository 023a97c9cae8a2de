// @vitrina/core/oauth: the OAuth 2.1 authorization server behind MCP (and its pieces for tests).
export * from "../oauth/index.js";

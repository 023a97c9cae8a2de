// @vitrina/core/demo: what the example server and the tour use, never needed in production: the
// demo catalog, a messaging transport that only logs, and the OAuth consent page of the demo.
export { seedDemoData } from "../capabilities/seed-demo-data.js";
export { logMessagingTransport } from "../messaging/log-transport.js";
export { demoConsentPage } from "../oauth/demo-consent-page.js";

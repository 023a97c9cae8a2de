// @vitrina/console: the web console, mounted by `createVitrina({ console: vitrinaConsole({ signIn }) })`.
export { vitrinaConsole } from "./vitrina-console.js";
export type { ConsoleOptions, ConsoleSignInHook, ConsoleUser } from "./console-options.js";
// For demos and the tour only: a sign-in page with one button and no password.
export { demoConsoleOptions, demoConsoleSignIn } from "./demo-console-sign-in.js";

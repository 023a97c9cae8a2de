// Moved to core's test support with the tests of core's rules; kept here for the binding's tests.
export * from "../../../core/test/support/hanging-receiver-scenario.js";

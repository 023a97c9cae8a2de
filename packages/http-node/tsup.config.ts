import { packageBuild } from "../../tsup.config.base.js";

// Adapters, drivers and Fastify are loaded only when the CLI or the Fastify plugin needs them.
export default packageBuild({
  entry: ["src/index.ts", "src/cli.ts", "src/fastify.ts"],
  external: ["pg", "@electric-sql/pglite", "@vitrina/adapter-postgres", "@vitrina/adapter-memory", "fastify"],
});

import { packageBuild } from "../../tsup.config.base.js";

// The drivers are the embedder's: structural types only, never bundled.
export default packageBuild({ entry: ["src/index.ts"], external: ["pg", "@electric-sql/pglite"] });

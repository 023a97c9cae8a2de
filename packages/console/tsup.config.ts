import { packageBuild } from "../../tsup.config.base.js";

export default packageBuild({ entry: ["src/index.ts"] });

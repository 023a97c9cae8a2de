// Every subpath the installed @vitrina/* packages export, read from their package.json `exports`.
// `@vitrina/core/testing` is left out: it imports vitest, an optional peer this project doesn't install.
const PACKAGES = [
  "@vitrina/core",
  "@vitrina/client",
  "@vitrina/adapter-memory",
  "@vitrina/adapter-postgres",
  "@vitrina/http-node",
  "@vitrina/console",
];
const NEEDS_OPTIONAL_PEER = new Set(["@vitrina/core/testing"]);

exports.entryPoints = function entryPoints(require, readFileSync) {
  return PACKAGES.flatMap((name) => {
    const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8"));
    return Object.keys(manifest.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? name : `${name}/${subpath.slice(2)}`))
      .filter((specifier) => !NEEDS_OPTIONAL_PEER.has(specifier));
  });
};

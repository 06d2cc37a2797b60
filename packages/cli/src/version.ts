// `iris --version`. Kept in step with packages/iris/package.json (version.test.ts checks it), so
// the bundle does not read package.json at start-up.
export const IRIS_VERSION = "0.1.0";

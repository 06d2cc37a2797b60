import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { IRIS_VERSION } from "./version.js";

it("matches the package's version", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  expect(IRIS_VERSION).toBe(pkg.version);
});

import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { IRIS_VERSION } from "./version.js";

it("matches the package's version and the bin's", () => {
  for (const pkg of ["../package.json", "../../iris/package.json"]) {
    const { version } = JSON.parse(readFileSync(new URL(pkg, import.meta.url), "utf8"));
    expect(IRIS_VERSION, pkg).toBe(version);
  }
});

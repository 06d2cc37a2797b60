import { describe, expect, it } from "vitest";
import { checkShellKeys } from "./shell-keys.js";

describe("checkShellKeys", () => {
  it("warns about exported keys by name, never by value", () => {
    const f = checkShellKeys(
      { OPENAI_API_KEY: "sk-secret-value", PATH: "/bin", GITHUB_TOKEN: "ghp_x" },
      "/h/.iris/.env",
    );
    expect(f.status).toBe("warn");
    expect(f.message).toContain("GITHUB_TOKEN, OPENAI_API_KEY");
    expect(f.fix).toContain("/h/.iris/.env");
    expect(JSON.stringify(f)).not.toContain("sk-secret-value");
  });

  it("is ok when no key is exported", () => {
    expect(checkShellKeys({ PATH: "/bin", OPENAI_API_KEY: "" }, "/h/.env").status).toBe("ok");
  });
});

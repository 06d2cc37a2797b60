import { describe, expect, it } from "vitest";
import { config as webchatSchema } from "./config.js";

describe("gateway.platforms.webchat", () => {
  it("defaults to loopback port 8787 and a bot named iris", () => {
    expect(webchatSchema.parse({})).toEqual({ host: "127.0.0.1", port: 8787, bot_name: "iris" });
  });

  it("refuses an address that is not loopback, saying why", () => {
    const r = webchatSchema.safeParse({ host: "0.0.0.0" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/loopback only/);
    expect(webchatSchema.safeParse({ host: "::1", port: 0 }).success).toBe(true);
  });
});

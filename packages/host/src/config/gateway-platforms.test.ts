// gateway.platforms is composed from what the gateway's platform plugins register (host names
// no platform): a registered section is checked strictly, with the key and line of a mistake.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registeredPlatforms, registerPlatformConfigs } from "./gateway-schema.js";
import { formatConfigErrors, parseConfigText } from "./load.js";

// Before the first parse, as the `iris` bin does at start.
const chat = z.strictObject({ server: z.string(), channels: z.array(z.string()).default([]) });
registerPlatformConfigs({ chat });

function errorsOf(text: string) {
  const r = parseConfigText(text, "config.yaml");
  if (r.ok) throw new Error("expected the config to be rejected");
  return r.errors;
}

describe("gateway.platforms", () => {
  it("checks a registered platform's section: a misspelt key is named with its line", () => {
    const errs = errorsOf("gateway:\n  platforms:\n    chat:\n      server: a\n      chanels: []\n");
    expect(errs[0]).toMatchObject({ line: 5 });
    expect(formatConfigErrors(errs)).toMatch(/chanels/);
  });

  it("refuses a platform nobody registered, naming it", () => {
    const errs = errorsOf("gateway:\n  platforms:\n    chatt:\n      server: a\n");
    expect(formatConfigErrors(errs)).toMatch(/chatt/);
  });

  it("applies the platform's defaults", () => {
    const r = parseConfigText("gateway:\n  platforms:\n    chat:\n      server: a\n", "config.yaml");
    expect(r.ok && r.config.gateway.platforms).toEqual({ chat: { server: "a", channels: [] } });
  });

  it("refuses a registration after the schema was used (it would be ignored)", () => {
    expect(() => registerPlatformConfigs({ other: chat })).toThrow(/registered after/);
    registerPlatformConfigs({ chat }); // the same schema again is a no-op
    expect(registeredPlatforms()).toEqual(["chat"]);
  });
});

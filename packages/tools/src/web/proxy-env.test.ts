import { describe, expect, it } from "vitest";
import { proxyAuthorization, proxyFor } from "./proxy-env.js";

const env =
  (vars: Record<string, string>) =>
  (k: string): string | undefined =>
    vars[k];

describe("proxyFor (the profile's HTTPS_PROXY/HTTP_PROXY/NO_PROXY)", () => {
  it("takes the scheme's variable, lower case first, then ALL_PROXY", () => {
    const e = env({ HTTPS_PROXY: "http://upper:1", https_proxy: "http://lower:2", HTTP_PROXY: "plain:3" });
    expect(proxyFor(new URL("https://a.example/x"), e)?.href).toBe("http://lower:2/");
    // A proxy without a scheme takes the target's.
    expect(proxyFor(new URL("http://a.example/x"), e)?.href).toBe("http://plain:3/");
    expect(proxyFor(new URL("http://a.example"), env({ ALL_PROXY: "http://all:4" }))?.host).toBe("all:4");
    expect(proxyFor(new URL("https://a.example"), env({}))).toBeUndefined();
  });

  it("honours NO_PROXY: names, suffixes, ports and *", () => {
    const e = (no: string) => env({ HTTPS_PROXY: "http://p:1", NO_PROXY: no });
    expect(proxyFor(new URL("https://intra.corp/"), e("intra.corp"))).toBeUndefined();
    expect(proxyFor(new URL("https://a.intra.corp/"), e(".intra.corp"))).toBeUndefined();
    expect(proxyFor(new URL("https://intra.corp/"), e(".intra.corp"))).toBeUndefined();
    expect(proxyFor(new URL("https://a.intra.corp/"), e("*.intra.corp"))).toBeUndefined();
    expect(proxyFor(new URL("https://other.example/"), e("intra.corp, localhost"))?.host).toBe("p:1");
    expect(proxyFor(new URL("https://intra.corp:8443/"), e("intra.corp:443"))?.host).toBe("p:1");
    expect(proxyFor(new URL("https://intra.corp/"), e("intra.corp:443"))).toBeUndefined();
    expect(proxyFor(new URL("https://[::1]:9/"), e("::1"))).toBeUndefined();
    expect(proxyFor(new URL("https://anything/"), e("*"))).toBeUndefined();
  });

  it("names the variable, not its value, when the proxy is not a URL", () => {
    expect(() => proxyFor(new URL("https://a/"), env({ HTTPS_PROXY: "http://us:sec ret@[bad" }))).toThrow(
      /HTTPS_PROXY/,
    );
    try {
      proxyFor(new URL("https://a/"), env({ HTTPS_PROXY: "http://us:secret@[bad" }));
    } catch (err) {
      expect(String(err)).not.toContain("secret");
    }
  });

  it("builds Basic credentials from the proxy URL", () => {
    expect(proxyAuthorization(new URL("http://ann:p%40ss@p:1"))).toBe(
      `Basic ${Buffer.from("ann:p@ss").toString("base64")}`,
    );
    expect(proxyAuthorization(new URL("http://p:1"))).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { ircIdentity, ircLower } from "./irc-identity.js";

describe("ircIdentity", () => {
  it("is the case-folded nick with the user and host, and the account where the server tags it", () => {
    expect(ircIdentity({ nick: "Bob", ident: "~bob", hostname: "LocalHost" })).toBe("bob!~bob@localhost");
    expect(ircIdentity({ nick: "bob", ident: "~bob", hostname: "h", account: "bobby" })).toBe(
      "bob!~bob@h account=bobby",
    );
    expect(ircIdentity({ nick: "bob", ident: "~bob", hostname: "h", account: "*" })).toBe("bob!~bob@h");
  });
  it("tells the same nick from another mask or account apart", () => {
    const owner = ircIdentity({ nick: "bob", ident: "~bob", hostname: "localhost" });
    expect(ircIdentity({ nick: "bob", ident: "~eve", hostname: "localhost" })).not.toBe(owner);
    expect(ircIdentity({ nick: "bob", ident: "~bob", hostname: "evil.example" })).not.toBe(owner);
    expect(ircIdentity({ nick: "bob", ident: "~bob", hostname: "localhost", account: "eve" })).not.toBe(
      owner,
    );
  });
  it("folds case the IRC way", () => {
    expect(ircLower("Nick[A]\\~")).toBe("nick{a}|^");
  });
});

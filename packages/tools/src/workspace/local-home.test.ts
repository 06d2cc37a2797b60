// A local workspace's home folder: $HOME, else the account's (os.homedir() answers the same; the
// account's is looked up once per process, since without $HOME that reads the password database).
import { userInfo } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { LocalWorkspace } from "./local.js";

const saved = process.env.HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.HOME;
  else process.env.HOME = saved;
});

describe("LocalWorkspace.home", () => {
  it("is $HOME when it is set, and follows a change of it", () => {
    process.env.HOME = "/home/someone";
    expect(new LocalWorkspace({ root: "/tmp" }).home).toBe("/home/someone");
    process.env.HOME = "/home/else";
    expect(new LocalWorkspace({ root: "/tmp" }).home).toBe("/home/else");
  });

  it("is the account's home folder without $HOME, for every workspace", () => {
    delete process.env.HOME;
    const account = userInfo().homedir;
    expect(new LocalWorkspace({ root: "/tmp" }).home).toBe(account);
    expect(new LocalWorkspace({ root: "/tmp" }).home).toBe(account);
  });
});

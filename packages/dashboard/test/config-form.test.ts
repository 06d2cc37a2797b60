// The config form edits lists and maps too (as one JSON value, validated like `iris config set`):
// a list typed into its field is saved into config.yaml, and a value of the wrong shape is refused
// with its key named, the file untouched.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type DashboardData, loadProfile } from "@iris/host";
import { tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { loadAssets } from "../src/assets.js";
import { DashboardAuth } from "../src/auth.js";
import type { DashboardDeps } from "../src/deps.js";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function dashboard() {
  const dir = tempDir("iris-dash-config");
  dirs.push(dir);
  writeFileSync(join(dir.path, "config.yaml"), "model: {provider: openai, name: gpt-4o}\n");
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const auth = new DashboardAuth("t".repeat(40));
  const login = auth.login("t".repeat(40));
  if (!login.ok) throw new Error("login refused");
  const cookie = login.cookie.split(";")[0] ?? "";
  const csrf = auth.session(cookie)?.csrf ?? "";
  const deps: DashboardDeps = {
    profile,
    env: { IRIS_HOME: dir.path },
    // The config routes never read the store.
    data: {} as DashboardData,
    auth,
    hosts: new Set(["dash.test"]),
    startedAt: Date.now(),
    version: "test",
  };
  const app = createApp(deps, loadAssets());
  const headers = { host: "dash.test", cookie };
  const page = async () => (await app.request("/config", { headers })).text();
  const set = async (key: string, value: string) => {
    const base = /name="base" value="([^"]+)"/.exec(await page())?.[1] ?? "";
    const body = new URLSearchParams({ _csrf: csrf, key, value, base });
    const res = await app.request("/config/key", {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    return res.text();
  };
  return { page, set, file: join(dir.path, "config.yaml") };
}

describe("config form: lists and maps", () => {
  it("shows a list field, saves a list typed into it, and refuses one of the wrong shape", async () => {
    const d = dashboard();
    expect(await d.page()).toContain('data-key="gateway.wake_words"');
    const saved = await d.set("gateway.wake_words", '["hey iris", "iris,"]');
    expect(saved).toContain("Saved gateway.wake_words");
    expect(readFileSync(d.file, "utf8")).toMatch(/wake_words:.*hey iris/s);
    expect(await d.page()).toContain("[&quot;hey iris&quot;,&quot;iris,&quot;]");
    const before = readFileSync(d.file, "utf8");
    const refused = await d.set("gateway.wake_words", '{"not": "a list"}');
    expect(refused).toContain("Not saved");
    expect(refused).toContain("gateway.wake_words");
    expect(readFileSync(d.file, "utf8")).toBe(before);
  });
});

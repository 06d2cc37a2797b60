// The platform e2e tests' gateway: a profile in a temp folder (the fake LLM as the model, the
// platform's secrets in its .env, the test's config lines) and `iris gateway run` on it, started
// when it says it runs; stopped with its exit code. Restartable on the same profile.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { runGateway, writeGatewayProfile } from "./profile.js";

/** Polls `get` until `ok`; times out naming `what` and the last value. */
export const until = async <T>(
  get: () => T,
  ok: (v: T) => boolean,
  what: string,
  ms = 30_000,
): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

export class E2eGateway {
  /** Everything the gateway wrote to stderr, across restarts. */
  err = "";
  private run: { stop: () => void; running: Promise<number> } | undefined;

  private constructor(readonly dir: TempDir) {}

  /** `env`: the .env file's text; `lines`: config.yaml after the model (a `gateway:` block). */
  static async start(prefix: string, fake: FakeLlm, env: string, lines: string[]): Promise<E2eGateway> {
    const gw = new E2eGateway(tempDir(prefix));
    writeFileSync(join(gw.home, ".env"), env);
    writeGatewayProfile(gw.home, fake, lines);
    await gw.start();
    return gw;
  }

  get home(): string {
    return this.dir.path;
  }

  /** Starts the gateway (again) and waits until it says it runs. */
  async start(): Promise<void> {
    const from = this.err.length;
    this.run = runGateway(this.home, (s) => {
      this.err += s;
    });
    await until(
      () => this.err.slice(from),
      (e) => e.includes("running (pid"),
      "the gateway to start",
    );
  }

  /** Stops the gateway; its exit code. */
  async stop(): Promise<number | undefined> {
    this.run?.stop();
    return this.run?.running;
  }

  /** Stops the gateway and removes the profile; its exit code. */
  async close(): Promise<number | undefined> {
    const code = await this.stop();
    this.dir.cleanup();
    return code;
  }
}

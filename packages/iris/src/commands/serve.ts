// `iris serve [--host H] [--port N]`: the OpenAI-compatible API server (SPEC E3), loaded only
// when asked for. It runs until SIGINT/SIGTERM, then closes the sessions and the store.
// `iris serve hash-key` prints the SHA-256 of a key read from stdin, for `serve.api_keys`.

import type { GlobalFlags } from "@iris/cli";
import { loadProfileOrExit } from "@iris/host";

export async function serveCommand(flags: GlobalFlags, o: { host?: string; port?: number }): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const { profile } = loaded;
  for (const w of profile.warnings) process.stderr.write(`iris: ${w}\n`);
  const { startServer, ServeStartError } = await import("@iris/serve");
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer({
      profile,
      env: process.env,
      ...(o.host !== undefined ? { host: o.host } : {}),
      ...(o.port !== undefined ? { port: o.port } : {}),
    });
  } catch (err) {
    if (!(err instanceof ServeStartError)) throw err;
    process.stderr.write(`iris serve: ${err.message}\n`);
    return 2;
  }
  process.stdout.write(`iris serve: listening on ${running.url}/v1 (profile ${profile.home.profile})\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await running.close();
  return 0;
}

export async function hashKeyCommand(): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const key = Buffer.concat(chunks).toString("utf8").trim();
  if (!key) {
    process.stderr.write(
      'iris serve hash-key: give the key on stdin (e.g. `printf %s "$KEY" | iris serve hash-key`)\n',
    );
    return 2;
  }
  const { hashKey } = await import("@iris/serve");
  process.stdout.write(`${hashKey(key)}\n`);
  return 0;
}

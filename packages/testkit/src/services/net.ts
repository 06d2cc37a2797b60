// Loopback helpers for the throw-away servers the tests start (Postgres, Redis).
import { connect, createServer } from "node:net";

/** A port nobody listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects when `gone()` says the server died, or after 20 s. */
export function waitListening(port: number, what: string, gone: () => string | undefined): Promise<void> {
  const until = Date.now() + 20_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const died = gone();
      if (died !== undefined) return reject(new Error(`${what} exited: ${died}`));
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve();
      });
      s.once("error", () => {
        s.destroy();
        if (Date.now() > until) reject(new Error(`${what} did not listen on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** describe.skipIf(…) argument: skip only outside CI, where a missing server is a failure. */
export function skipUnlessInstalled(installed: boolean, message: string): boolean {
  if (installed) return false;
  if (process.env.CI === "true") throw new Error(message);
  return true;
}

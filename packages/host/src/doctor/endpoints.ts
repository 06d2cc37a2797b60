// Whether something listens at each configured endpoint: a TCP connection with a short timeout
// (no request is sent, so no key travels). A closed port or an unknown host is a failure, not ✓.
import { connect } from "node:net";
import type { Finding } from "./types.js";

export const PROBE_TIMEOUT_MS = 2_000;

export interface Endpoint {
  label: string;
  baseUrl: string;
}

type ProbeResult = { ok: true } | { ok: false; why: string };

export function probeTcp(baseUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return Promise.resolve({ ok: false, why: "not a URL" });
  }
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (r: ProbeResult) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(
      () => done({ ok: false, why: `no answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    socket.once("connect", () => done({ ok: true }));
    socket.once("error", (err: NodeJS.ErrnoException) => {
      const why =
        err.code === "ECONNREFUSED"
          ? "connection refused: nothing listens there"
          : err.code === "ENOTFOUND"
            ? "unknown host"
            : (err.code ?? err.message);
      done({ ok: false, why });
    });
  });
}

/** One finding per distinct endpoint, probed in parallel. */
export async function checkEndpoints(endpoints: readonly Endpoint[]): Promise<Finding[]> {
  const seen = new Map<string, string[]>();
  for (const e of endpoints) seen.set(e.baseUrl, [...(seen.get(e.baseUrl) ?? []), e.label]);
  return Promise.all(
    [...seen].map(async ([baseUrl, labels]): Promise<Finding> => {
      const r = await probeTcp(baseUrl);
      const subject = `endpoint ${baseUrl}`;
      return r.ok
        ? { status: "ok", subject, message: `answers (${labels.join(", ")})` }
        : {
            status: "fail",
            subject,
            message: `does not answer: ${r.why} (${labels.join(", ")})`,
            fix: "start the server, or correct base_url / --base-url (port and host)",
          };
    }),
  );
}

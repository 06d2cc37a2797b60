// The signal-cli daemon's HTTP API, by plain fetch (signal-cli has no Node client): JSON-RPC 2.0
// calls on POST /api/v1/rpc, and the server-sent events of GET /api/v1/events read line by line.

export class SignalRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

let nextId = 1;

/** One JSON-RPC call; its result, or a SignalRpcError with the daemon's code and message. */
export async function rpc(base: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const id = nextId++;
  const res = await fetch(`${base}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", method, params, id }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`signal-cli ${method}: HTTP ${res.status}, not JSON-RPC: ${text.slice(0, 200)}`);
  }
  if (body.error)
    throw new SignalRpcError(
      Number(body.error.code ?? 0),
      `signal-cli ${method} failed (${String(body.error.code)}): ${String(body.error.message)}`,
    );
  if (!res.ok) throw new Error(`signal-cli ${method}: HTTP ${res.status}`);
  return body.result;
}

/** Reads a text/event-stream body, calling `onEvent` with each event's name and data, until it ends. */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buf = "";
  let name = "message";
  let data: string[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
      if (line === "") {
        if (data.length > 0) onEvent(name, data.join("\n"));
        name = "message";
        data = [];
      } else if (line.startsWith(":")) {
        // a comment: the daemon's keep-alive
      } else {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") name = value;
        else if (field === "data") data.push(value);
      }
    }
  }
}

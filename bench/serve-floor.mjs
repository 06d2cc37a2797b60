// The floor for `bench/serve.ts --server-process --floor`: the least a Node server in iris serve's
// place does for a plain stateless chat completion, run in a process of its own exactly as iris
// serve is (bench/serve-process.ts). It reads and parses the client's JSON, sends iris's own
// upstream request (the bytes iris serve sent, from FLOOR_UPSTREAM_FILE) to FLOOR_UPSTREAM_URL on
// a keep-alive node:http agent, reads the streamed SSE reply, parses each event and answers one
// chat.completion JSON. No session, no prompt building, no validation, no logs: what iris serve
// reaches on this machine is measured against what any Node proxy reaches.
// Plain JS, so nothing compiles it. Prints "listening on URL" on stdout.
import { readFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";

const upstreamBody = readFileSync(process.env.FLOOR_UPSTREAM_FILE ?? "", "utf8");
const upstreamUrl = new URL(process.env.FLOOR_UPSTREAM_URL ?? "");
const agent = new Agent({ keepAlive: true });
const headers = {
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(upstreamBody)),
  authorization: "Bearer bench",
};

function answer(res, text) {
  let content = "";
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    content += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? "";
  }
  const reply = JSON.stringify({
    id: "chatcmpl-floor",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "iris",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(reply) });
  res.end(reply);
}

const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (d) => {
    body += d;
  });
  req.on("end", () => {
    JSON.parse(body);
    const up = request(upstreamUrl, { method: "POST", agent, headers }, (r) => {
      let text = "";
      r.setEncoding("utf8");
      r.on("data", (d) => {
        text += d;
      });
      r.on("end", () => answer(res, text));
    });
    up.end(upstreamBody);
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => process.exit(0));

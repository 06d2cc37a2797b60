// The programs execute_code runs around the model's code: a client of the tool channel (one
// JSON line per call over a unix socket, answered in order) that gives the code an `iris` object
// whose attributes are the allowed tools, then the code itself. Python calls block; JavaScript
// calls return promises (the code runs as an ES module, so top-level `await` works).

export const PYTHON_STUB = String.raw`import json, os, socket, sys

class IrisToolError(Exception):
    pass

class _Iris:
    def __init__(self, path):
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(path)
        self._file = self._sock.makefile("rwb")

    def call(self, tool, **args):
        self._file.write((json.dumps({"tool": tool, "args": args}) + "\n").encode("utf-8"))
        self._file.flush()
        line = self._file.readline()
        if not line:
            raise IrisToolError("the tool channel closed")
        reply = json.loads(line)
        if "error" in reply:
            raise IrisToolError(reply["error"])
        return reply["content"]

    def __getattr__(self, tool):
        if tool.startswith("_"):
            raise AttributeError(tool)
        return lambda **args: self.call(tool, **args)

iris = _Iris(os.environ["IRIS_RPC"])
_program = sys.argv[1]
with open(_program, encoding="utf-8") as _f:
    _code = compile(_f.read(), "program.py", "exec")
exec(_code, {"__name__": "__main__", "iris": iris, "IrisToolError": IrisToolError})
`;

export const JS_STUB = String.raw`import net from "node:net";
import { pathToFileURL } from "node:url";

const sock = net.connect(process.env.IRIS_RPC);
const waiting = [];
let buffered = "";
sock.setEncoding("utf8");
sock.on("data", (d) => {
  buffered += d;
  for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    waiting.shift()?.(JSON.parse(line));
  }
});
sock.on("close", () => {
  for (const w of waiting.splice(0)) w({ error: "the tool channel closed" });
});
await new Promise((resolve, reject) => {
  sock.once("connect", resolve);
  sock.once("error", reject);
});
function call(tool, args = {}) {
  return new Promise((resolve, reject) => {
    waiting.push((r) => ("error" in r ? reject(new Error(r.error)) : resolve(r.content)));
    sock.write(JSON.stringify({ tool, args }) + "\n");
  });
}
globalThis.iris = new Proxy({ call }, { get: (t, k) => (k === "call" ? call : (args) => call(String(k), args)) });
try {
  await import(pathToFileURL(process.argv[2]).href);
} finally {
  sock.end();
}
`;

// The server half of `bench/serve.ts --server-process`: iris serve in its own process (as a
// deployment runs it), so the fake LLM server and the load generator do not share its CPU and a
// `node --cpu-prof` of this process is the server's alone. Prints its URL, stops on SIGTERM.
import { loadProfile } from "../packages/host/src/index.js";
import { startServer } from "../packages/serve/src/index.js";

const env = {
  IRIS_HOME: process.env.IRIS_HOME ?? "",
  PATH: process.env.PATH ?? "",
  IRIS_LOG_LEVEL: "silent",
};
const profile = loadProfile({ env, registerSecret: () => {} });
if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
const server = await startServer({ profile, port: 0, env });
process.stdout.write(`${server.url}\n`);
// "cpu" on stdin: this process's CPU time so far (ms), so the bench can print the server's own
// CPU per request, which a loaded machine changes far less than requests per second.
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d: string) => {
  for (const line of d.split("\n")) {
    if (line.trim() !== "cpu") continue;
    const cpu = process.cpuUsage();
    process.stdout.write(`cpu ${(cpu.user + cpu.system) / 1000}\n`);
  }
});
process.on("SIGTERM", () => {
  const cpu = process.cpuUsage();
  process.stderr.write(`server CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
  void server.close().then(() => process.exit(0));
});

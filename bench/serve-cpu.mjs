// Preloaded into `iris serve` by bench/serve.ts --server-process (node --import): a line "cpu" on
// stdin is answered on stdout with the process's CPU time (all its threads), and its event loop's
// busy and idle time, so far (ms). The server's own code is unchanged; plain JS, so nothing
// compiles it.
import { performance } from "node:perf_hooks";

process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => {
  for (const line of d.split("\n")) {
    if (line.trim() !== "cpu") continue;
    const cpu = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    process.stdout.write(`cpu ${(cpu.user + cpu.system) / 1000} ${loop.active} ${loop.idle}\n`);
  }
});
// An open stdin is not what keeps the server running; its end (the bench is gone) stops it.
process.stdin.unref();
process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));

// Which platforms a running gateway serves and which stopped for good (a revoked token, another
// process polling its bot), in a small JSON file beside the pid file: `iris gateway status`
// prints it and a dashboard may read it. Written whole each time (rename over the old one).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const healthSchema = z.object({
  pid: z.int(),
  platforms: z.record(
    z.string(),
    z.object({ state: z.enum(["running", "stopped"]), since: z.number(), reason: z.string().optional() }),
  ),
});

export type PlatformHealth = z.output<typeof healthSchema>;

export const healthPath = (home: string) => join(home, "gateway-platforms.json");

export class HealthFile {
  private readonly health: PlatformHealth;

  constructor(
    private readonly path: string,
    platforms: readonly string[],
  ) {
    const since = Date.now();
    this.health = {
      pid: process.pid,
      platforms: Object.fromEntries(platforms.map((p) => [p, { state: "running" as const, since }])),
    };
    this.write();
  }

  stopped(platform: string, reason: string): void {
    this.health.platforms[platform] = { state: "stopped", since: Date.now(), reason };
    this.write();
  }

  private write(): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.health)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}

/** The health a gateway process wrote, when it is that process's (a stale file says nothing). */
export function readHealth(path: string, pid: number): PlatformHealth | undefined {
  try {
    const h = healthSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    return h.pid === pid ? h : undefined;
  } catch {
    return undefined;
  }
}

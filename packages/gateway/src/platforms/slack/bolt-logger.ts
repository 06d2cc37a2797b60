// Bolt's and the Slack clients' logger on ours: their debug lines (which print whole payloads)
// are dropped, info is debug, and every line has the tokens and the signing secret cut out.
import type { Logger } from "@iris/llm";
import { LogLevel, type Logger as SlackLogger } from "@slack/bolt";

export function boltLogger(logger: Logger, secrets: readonly string[]): SlackLogger {
  const clean = (parts: unknown[]) => {
    let s = parts.map((p) => (p instanceof Error ? p.message : String(p))).join(" ");
    for (const x of secrets) s = s.split(x).join("<secret>");
    return s;
  };
  let level = LogLevel.WARN;
  return {
    debug: () => {},
    info: (...m: unknown[]) => logger.debug(clean(m)),
    warn: (...m: unknown[]) => logger.warn(clean(m)),
    error: (...m: unknown[]) => logger.warn(clean(m)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

// `iris cron list|add|remove`: the gateway's scheduled jobs, in the profile's store on either
// engine (state.db, or the Postgres schema every process of the profile shares). Messages for the
// user go to stdout, diagnostics to stderr; each returns an exit code.
import { StoreError } from "@iris/host";
import { type CommandIo, withProfileTables } from "./commands.js";
import { parseSchedule } from "./cron.js";
import { type CronState, openCronState } from "./state/cron-open.js";

function withCron(io: CommandIo, fn: (cron: CronState) => Promise<number>): Promise<number> {
  return withProfileTables(io, openCronState, async (cron) => {
    try {
      return await fn(cron);
    } catch (err) {
      // A server gone mid-command: said, not thrown.
      if (!(err instanceof StoreError)) throw err;
      io.err(`iris: ${err.message}\n`);
      return 1;
    }
  });
}

export function cronList(io: CommandIo): Promise<number> {
  return withCron(io, async (cron) => {
    const jobs = await cron.list();
    if (jobs.length === 0) io.out("No scheduled jobs.\n");
    for (const j of jobs) {
      const last = j.lastSlot ? new Date(j.lastSlot).toISOString() : "never";
      io.out(
        `${j.id}  ${j.schedule}  → ${j.platform}:${j.chatId}  (missed: ${j.missed}; last ${last})  ${j.prompt}\n`,
      );
    }
    return 0;
  });
}

export async function cronAdd(
  io: CommandIo,
  schedule: string,
  to: string,
  prompt: string,
  missed: "run" | "skip",
): Promise<number> {
  const parsed = parseSchedule(schedule);
  if (!parsed.ok) {
    io.err(`iris: ${parsed.error}\n`);
    return 2;
  }
  const m = /^([a-z]+):(.+)$/.exec(to);
  if (!m) {
    io.err(
      `iris: --to ${to}: expected PLATFORM:CHAT, e.g. PLATFORM:#team (a channel) or PLATFORM:alice (a user)\n`,
    );
    return 2;
  }
  if (!prompt.trim()) {
    io.err("iris: the job needs a prompt\n");
    return 2;
  }
  return withCron(io, async (cron) => {
    const job = await cron.add({ schedule, platform: m[1] ?? "", chatId: m[2] ?? "", missed, prompt });
    io.out(`added job ${job.id}: ${schedule} → ${to}\n`);
    return 0;
  });
}

export function cronRemove(io: CommandIo, id: string): Promise<number> {
  return withCron(io, async (cron) => {
    if (await cron.remove(id)) {
      io.out(`removed job ${id}\n`);
      return 0;
    }
    io.err(`iris: no job ${id}\n`);
    return 1;
  });
}

// `iris context [--session ID]`: the context budget of the current (provider, model) (SPEC M3),
// read from config and store without starting a model.

import type { SessionRow, StoredRecords } from "@iris/host";
import { formatContextReport, loadProfileOrExit, resolveMainRoute } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { resolveSession } from "../session-ref.js";
import { readRecords } from "./with-records.js";

async function findSession(records: StoredRecords, id: string): Promise<SessionRow | undefined> {
  const found = await resolveSession(records, id);
  return found.ok ? found.row : undefined;
}

export async function contextCommand(flags: GlobalFlags, opts: { session?: string }): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const { profile } = loaded;
  return readRecords(profile, async (records) => {
    const session = opts.session ? await findSession(records, opts.session) : undefined;
    if (opts.session && !session) {
      process.stderr.write(`iris: no session '${opts.session}' (see: iris sessions list)\n`);
      return 2;
    }
    // The route: flags and config, like a chat would start; else the session's own route. No
    // credentials are needed to read figures, so (provider, model) given in full is taken as is.
    const flagged = flags.provider !== undefined || flags.model !== undefined;
    let provider: string | undefined;
    let model: string | undefined;
    if (flags.provider && flags.model) {
      provider = flags.provider;
      model = flags.model;
    } else if (flagged || !session?.provider || !session.model) {
      const route = resolveMainRoute(flags, profile.config, profile.env);
      if (!route.ok) {
        process.stderr.write(`iris: ${route.error}\n`);
        return 2;
      }
      provider = route.runtime.provider;
      model = route.runtime.model;
    } else {
      provider = session.provider;
      model = session.model;
    }
    process.stdout.write(
      formatContextReport(
        await records.contextFigures({
          config: profile.config,
          provider,
          model,
          ...(session ? { sessionId: session.id } : {}),
        }),
      ),
    );
    return 0;
  });
}

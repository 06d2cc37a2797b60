// Resuming a session (SPEC E1): it continues on the model it was using, unless the user chose one
// on the command line for this run; a model that can no longer be reached is said, not hidden.
import type { Session, SessionRow } from "@iris/host";
import type { GlobalFlags } from "./flags.js";

/** Resumes `row` and switches to its model; returns a line to show when that failed. */
export async function resumeOnItsModel(
  session: Session,
  row: SessionRow,
  flags: GlobalFlags,
): Promise<string | undefined> {
  await session.resumeSession(row.id);
  if (flags.model || !row.model) return undefined;
  const r = session.runtime;
  const provider = row.provider ?? r.provider;
  if (provider === r.provider && row.model === r.model) return undefined;
  // On the same provider the bare name keeps the endpoint given on the command line.
  const bare = provider === r.provider && !row.model.includes("/");
  const switched = await session.switchModel(bare ? row.model : `${provider}/${row.model}`);
  return switched.ok
    ? undefined
    : `the session used ${provider}/${row.model}, which cannot be used now (${switched.error}); continuing on ${r.provider}/${r.model}`;
}

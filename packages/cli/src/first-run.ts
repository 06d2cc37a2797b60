// The first interactive start with no provider configured offers `iris setup` instead of an error.
import { loadProfileOrExit, resolveMainRoute, routeFlagsOf } from "@iris/host";
import type { GlobalFlags } from "./flags.js";
import { lineReader } from "./ui/line-reader.js";

function noProviderYet(flags: GlobalFlags): boolean {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) return false; // the chat's own start reports the config error
  const route = resolveMainRoute(routeFlagsOf(flags), loaded.profile.config, loaded.profile.env);
  return !route.ok && /no provider chosen/.test(route.error);
}

/** Runs setup when wanted; returns an exit code to stop with, or undefined to go on to the chat. */
export async function offerSetup(flags: GlobalFlags): Promise<number | undefined> {
  if (!process.stdin.isTTY || !noProviderYet(flags)) return undefined;
  const r = lineReader(process.stdin, process.stdout);
  const a = await r.ask("No provider is configured yet. Set one up now? [Y/n] ");
  r.close();
  if (a === undefined || !/^(y|yes)?$/i.test(a.trim())) return undefined; // the start explains what to do
  const { runSetup } = await import("./commands/setup.js");
  const code = await runSetup(flags);
  return code === 0 ? undefined : code;
}

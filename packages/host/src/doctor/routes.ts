// Every configured route (the main one, each fallback, a separate summary model): it resolves,
// its key comes from somewhere the current user can read (and write, where a refresh writes),
// and the catalogue knows the model (SPEC K3, M3, F2). The seeds' outage: the fallback re-resolves
// credentials at activation, so an unreadable key file blocks the whole chain.
import { parseFallbackProviders, type RouteSpec, resolverFromConfig } from "@iris/agent";
import { DEFAULT_CONTEXT_WINDOW, getProvider, listCatalogue, type Runtime } from "@iris/llm";
import { modelInfoFor, type RouteFlags, resolveMainRoute, routingConfigOf } from "../app/route.js";
import type { Profile } from "../config/index.js";
import { type Finding, fileAccess, ownAndRestrict, type Probe } from "./types.js";

export interface ResolvedRoute {
  /** "main route", "fallback 1", "summary model". */
  label: string;
  runtime: Runtime;
}

export interface RouteCheck {
  findings: Finding[];
  main?: Runtime;
  resolved: ResolvedRoute[];
}

const n = (x: number) => x.toLocaleString("en-US");

/** The summary model as config names it: "provider/model", or a model of the main provider. */
export function summarySpec(profile: Profile, main: Runtime): RouteSpec | undefined {
  const name = profile.config.compression.summary_model;
  if (!name) return undefined;
  const slash = name.indexOf("/");
  const head = slash > 0 ? name.slice(0, slash) : "";
  const isProvider = head !== "" && (getProvider(head) !== undefined || head in profile.config.providers);
  return isProvider
    ? { provider: head, model: name.slice(slash + 1) }
    : { provider: main.provider, model: name };
}

export function checkRoutes(profile: Profile, flags: RouteFlags, probe: Probe): RouteCheck {
  const findings: Finding[] = [];
  const resolved: ResolvedRoute[] = [];
  const mainRes = resolveMainRoute(flags, profile.config, profile.env);
  let main: Runtime | undefined;
  if (mainRes.ok) {
    main = mainRes.runtime;
    resolved.push({ label: "main route", runtime: main });
    findings.push(...routeFindings("main route", main, mainRes.notes, profile, probe, true));
  } else findings.push(unresolved("main route", mainRes.error, profile, probe));

  const resolve = resolverFromConfig(routingConfigOf(profile.config), () => profile.env);
  const chain = parseFallbackProviders(profile.config.fallback_providers);
  if (!chain.ok) findings.push({ status: "fail", subject: "fallback_providers", message: chain.error });
  const routes = chain.ok ? chain.routes : [];
  routes.forEach((spec, i) => {
    const label = `fallback ${i + 1} (${spec.provider}/${spec.model})`;
    const res = resolve(spec);
    if (res instanceof Promise) return; // resolverFromConfig is synchronous; a Promise never comes back
    if (!res.ok) {
      findings.push(unresolved(label, res.error, profile, probe));
      return;
    }
    resolved.push({ label: `fallback ${i + 1}`, runtime: res.runtime });
    findings.push(...routeFindings(label, res.runtime, [], profile, probe, false));
  });

  const summary = main ? summarySpec(profile, main) : undefined;
  if (main && summary && (summary.provider !== main.provider || summary.model !== main.model)) {
    const label = `summary model (${summary.provider}/${summary.model})`;
    const res = resolve(summary);
    if (!(res instanceof Promise)) {
      if (!res.ok) findings.push(unresolved(label, res.error, profile, probe));
      else {
        resolved.push({ label: "summary model", runtime: res.runtime });
        findings.push(...routeFindings(label, res.runtime, [], profile, probe, false));
      }
    }
  }
  return { findings, resolved, ...(main ? { main } : {}) };
}

function unresolved(subject: string, error: string, profile: Profile, probe: Probe): Finding {
  const envPath = profile.home.paths.env;
  const env = fileAccess(probe, envPath);
  const missingKey = /needs (\w+)/.exec(error)?.[1];
  let fix: string | undefined;
  if (missingKey && env.exists && !env.readable)
    fix = `make ${envPath} readable first (see the .env line): ${ownAndRestrict(probe, envPath)}`;
  else if (missingKey) fix = `add ${missingKey}=<your key> to ${envPath} (then chmod 600 ${envPath})`;
  else if (/no provider chosen/.test(error))
    fix = "set model.provider and model.name in config.yaml (or pass --provider and --model)";
  return { status: "fail", subject, message: error, ...(fix ? { fix } : {}) };
}

function routeFindings(
  label: string,
  rt: Runtime,
  notes: readonly string[],
  profile: Profile,
  probe: Probe,
  isMain: boolean,
): Finding[] {
  const out: Finding[] = [
    { status: "ok", subject: label, message: `${rt.provider}/${rt.model} → ${rt.baseUrl} (${rt.apiMode})` },
    keyFinding(label, rt, profile, probe),
    catalogueFinding(label, rt, profile, isMain),
  ];
  // The key line above already says when no key is sent; the rest (a key withheld) is news.
  for (const note of notes.filter((t) => !/no API key is sent/.test(t)))
    out.push({ status: "warn", subject: `${label} key`, message: note.replace(/^\([^)]*\): /, "") });
  return out;
}

/** Where the route's key comes from, and whether the current user can read and write it there. */
export function keyFinding(label: string, rt: Runtime, profile: Profile, probe: Probe): Finding {
  const subject = `${label} key`;
  if (!rt.apiKey) return { status: "ok", subject, message: `none sent to ${rt.baseUrl}` };
  const name = rt.apiKeyEnv;
  if (!name) {
    return {
      status: "warn",
      subject,
      message: `written into ${profile.home.paths.config} (providers.${rt.provider}.api_key)`,
      fix: `move it to ${profile.home.paths.env} as a variable and set providers.${rt.provider}.api_key_env to its name`,
    };
  }
  if (profile.dotenv[name] === undefined)
    return {
      status: "ok",
      subject,
      message: `${name} from the process environment (a refresh cannot store a new key there)`,
    };
  const path = profile.home.paths.env;
  const a = fileAccess(probe, path);
  if (a.readable && a.writable)
    return { status: "ok", subject, message: `${name} from ${path}: readable and writable by you` };
  return {
    status: "fail",
    subject,
    message: `${name} comes from ${path}, which you cannot ${a.readable ? "write (a 401 refresh cannot store a new key)" : "read"}`,
    fix: ownAndRestrict(probe, path),
  };
}

/** The catalogue's belief about the route, or loudly which default stands in (SPEC M3). */
export function catalogueFinding(label: string, rt: Runtime, profile: Profile, isMain: boolean): Finding {
  const subject = `${label} model`;
  const found = modelInfoFor(rt.provider, rt.model, profile.config);
  const window = n(found.info.contextWindow);
  if (found.known)
    return {
      status: "ok",
      subject,
      message: `known to the catalogue (${found.source}): window ${window} tokens, $${found.info.price.input}/$${found.info.price.output} per 1M in/out`,
    };
  if (found.source === "config")
    return {
      status: "warn",
      subject,
      message: `${rt.provider}/${rt.model} is in no catalogue: window ${window} from model.context_window, no price (its cost shows as $0)`,
    };
  const assumed = `${rt.provider}/${rt.model} is in no catalogue: the default window of ${n(DEFAULT_CONTEXT_WINDOW)} tokens is assumed and no price (its cost shows as $0)`;
  // A local or custom endpoint's models are whatever its server offers: no catalogue has them,
  // so that is worth a note, not a failure.
  const catalogued = listCatalogue(getProvider(rt.provider)?.id ?? rt.provider).length > 0;
  if (isMain)
    return {
      status: catalogued ? "fail" : "warn",
      subject,
      message: assumed,
      fix: `check the model name; if it is right, set model.context_window: <its window in tokens> in ${profile.home.paths.config}`,
    };
  return {
    status: "warn",
    subject,
    message: `${assumed} when it is used`,
    fix: "check the model name (a misspelt model is unknown too)",
  };
}

// A session's model clients: the route it calls now, the one resilient client of that route (its
// cooldowns outlive a turn, SPEC U4), smart approval mode's judge (T4) and an explicit switch
// (SPEC S2, H7). Clients are made on first use and dropped when the route is switched.
import type { AgentEvents, ResilientModelClient } from "@iris/agent";
import type { Runtime } from "@iris/llm";
import type { Profile } from "../config/index.js";
import type { RouteFlags } from "./route.js";
import { makeResilientClient } from "./session-model-client.js";
import type { SessionParent } from "./session-parent.js";
import { judgeClient, resolveSwitch } from "./session-routes.js";

export interface SessionModelsOptions {
  profile: Profile;
  parent: SessionParent;
  events: AgentEvents;
  /** The route flags the session was opened with (a switch within one provider keeps them). */
  route?: RouteFlags;
  /** The main client moved to a fallback route, or back (the context control follows it). */
  onRouteChange: (rt: Runtime) => void;
}

export class SessionModels {
  private main: ResilientModelClient | undefined;

  constructor(
    private readonly o: SessionModelsOptions,
    private current: Runtime,
  ) {}

  /** The route chosen for the session (a fallback a turn moved to is the client's, see route()). */
  get runtime(): Runtime {
    return this.current;
  }

  /** The route calls go to now: the client's (it may be on a fallback), else the chosen one. */
  route(): { provider: string; model: string } {
    return this.main?.route() ?? this.current;
  }

  /** One resilient client per session and route. */
  client(): ResilientModelClient {
    this.main ??= this.clientFor(this.current, this.o.onRouteChange);
    return this.main;
  }

  /** The judge's client: `approvals.judge_model`, or the main route. */
  judge(): ResilientModelClient {
    return judgeClient(this.o.profile, this.current, this.client(), (rt) => this.clientFor(rt, undefined));
  }

  /** The route `spec` ("MODEL" or "PROVIDER/MODEL") names, resolved but not switched to. */
  resolve(spec: string): ReturnType<typeof resolveSwitch> {
    return resolveSwitch(spec, this.o.profile, this.current, this.o.route);
  }

  /** Calls go to `runtime` from now on (a new client on first use). */
  switchTo(runtime: Runtime): void {
    this.current = runtime;
    this.main = undefined;
  }

  private clientFor(primary: Runtime, onRouteChange?: (rt: Runtime) => void): ResilientModelClient {
    const { profile, parent, events } = this.o;
    return makeResilientClient(profile, parent, events, primary, onRouteChange);
  }
}

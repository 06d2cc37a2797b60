// A session's events as front ends see them: every event tagged with the session's id and the task
// running now (a subagent's with its own), to the session's subscribers and the process's.
import type { AgentEvents } from "@iris/agent";
import {
  EventFanout,
  type EventIdentity,
  type HostEvent,
  type HostEventListener,
  type HostEventMap,
} from "./events.js";

export class SessionTagging {
  private readonly fanout = new EventFanout();
  /** The task of the turn running now ("" before the first turn). */
  taskId = "";

  constructor(
    /** The session's id now ("" before it is started). */
    private readonly sessionId: () => string,
    /** The process's subscribers. */
    private readonly processEvents: { emit(event: HostEvent): void },
  ) {}

  /** Every raw event of `events` goes out again tagged with this session and the running task. */
  follow(events: AgentEvents): void {
    events.onAny((name, payload) => this.emit(name, payload, { taskId: this.taskId }));
  }

  subscribe(fn: HostEventListener): () => void {
    return this.fanout.subscribe(fn);
  }

  emit(name: keyof HostEventMap, payload: unknown, identity: Omit<EventIdentity, "sessionId">): void {
    // The name and payload come from one typed map (Session.emitTagged, or an AgentEvents listener).
    const event = { sessionId: this.sessionId(), ...identity, name, payload } as HostEvent;
    this.fanout.emit(event);
    this.processEvents.emit(event);
  }
}

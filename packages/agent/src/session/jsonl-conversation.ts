// A conversation log in a JSONL file (ARCHITECTURE.md: conversation logs are ports): batch
// trajectories, one file per trajectory, never in state.db. One JSON object per line, appended
// and never rewritten, so a killed run leaves every line it wrote; reopening the file resumes it.
//   {"type":"prompt","session":ID,"text":…}   the frozen system prompt (S2), newest wins
//   {"type":"message","session":ID,"id":NODE,"message":{…}}
//   {"type":"usage","session":ID,…UsageRow}
//   {"type":"effect",…EffectRow}              a receipt (D4), each change a new line
//   {"type":"split","from":ID,"to":ID}   then the compacted history as message lines under `to`
// A torn last line (the process died mid-write) is skipped on reading.
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Message } from "@iris/llm";
import type { EffectRow } from "@iris/store";
import { childNodeInputs } from "../context/split.js";
import { logicalOpId } from "../effects/op-id.js";
import { type RepairedCall, repairTail } from "../effects/repair.js";
import type { ConversationLog, UsageRow } from "../ports.js";
import { type LogNode, LogReceipts } from "./log-receipts.js";

type Line =
  | { type: "prompt"; session: string; text: string }
  | { type: "message"; session: string; id: string; message: Message }
  | ({ type: "usage"; session: string } & UsageRow)
  | ({ type: "effect" } & EffectRow)
  | { type: "split"; from: string; to: string };

export class JsonlConversation implements ConversationLog {
  private id: string;
  private messages: Message[] = [];
  private nodes = 0;
  private cost = 0;
  private prompt: string | undefined;
  private readonly byNode = new Map<string, LogNode>();
  /** Usage rows of this trajectory (all ids, splits included), oldest first. */
  readonly usage: UsageRow[] = [];
  readonly receipts = new LogReceipts(
    (id) => this.byNode.get(id),
    (effect) => this.write({ type: "effect", ...effect }),
  );

  constructor(
    readonly path: string,
    opts: { sessionId?: string } = {},
  ) {
    this.id = opts.sessionId ?? `traj_${randomUUID()}`;
    if (existsSync(path)) this.load(readFileSync(path, "utf8"));
    else mkdirSync(dirname(path), { recursive: true });
  }

  get sessionId(): string {
    return this.id;
  }

  /** The frozen system prompt written with this trajectory, if any. */
  get systemPrompt(): string | undefined {
    return this.prompt;
  }

  setSystemPrompt(text: string): void {
    this.write({ type: "prompt", session: this.id, text });
    this.prompt = text;
  }

  async history(): Promise<Message[]> {
    return [...this.messages];
  }

  async append(message: Message): Promise<string> {
    return this.appendNow(message);
  }

  private appendNow(message: Message): string {
    const id = `${this.id}:${++this.nodes}`;
    this.write({ type: "message", session: this.id, id, message });
    this.messages.push(message);
    this.byNode.set(id, { sessionId: this.id, message });
    return id;
  }

  /**
   * Closes the calls a killed run left without results, as the store's resume does (SPEC D4):
   * a finished receipt's result is restored, an unfinished one is reported uncertain, a call
   * without a receipt never ran. Nothing is executed; each result is one appended line.
   */
  async repairInterruptedCalls(): Promise<RepairedCall[]> {
    const path = this.messages.map((message, i) => ({ id: `${this.id}:${i + 1}`, message }));
    const { repaired } = await repairTail(
      path,
      async (node, index) => this.receipts.findByOp(logicalOpId(this.id, node.id, index)),
      async (result) => {
        this.appendNow(result);
      },
    );
    return repaired;
  }

  async recordUsage(row: UsageRow): Promise<void> {
    this.write({ type: "usage", session: this.id, ...row });
    this.usage.push(row);
    this.cost += row.costUsd;
  }

  async sessionCostUsd(): Promise<number> {
    return this.cost;
  }

  /** Continues under a new id with `compacted` as the whole history; returns the new id. */
  async split(compacted: readonly Message[]): Promise<string> {
    const to = `traj_${randomUUID()}`;
    this.write({ type: "split", from: this.id, to });
    this.id = to;
    this.messages = [];
    this.nodes = 0;
    for (const input of childNodeInputs(compacted)) if (input.message) this.appendNow(input.message);
    return to;
  }

  private write(line: Line): void {
    // One write per line: a line is whole on disk or (killed mid-write) torn and skipped.
    appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  }

  /** Replays the file: the history is the messages of the newest id, the cost all usage rows'. */
  private load(text: string): void {
    let current: string | undefined;
    for (const raw of text.split("\n")) {
      if (!raw.trim()) continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a torn last line
      }
      if (line.type === "split") {
        current = line.to;
        this.messages = [];
        this.nodes = 0;
      } else if (line.type === "prompt") {
        current ??= line.session;
        this.prompt = line.text;
      } else if (line.type === "effect") {
        const { type: _type, ...effect } = line;
        this.receipts.restore(effect);
      } else if (line.type === "usage") {
        const { type: _type, session: _session, ...row } = line;
        this.usage.push(row);
        this.cost += line.costUsd;
      } else if (line.type === "message") {
        if (current !== undefined && line.session !== current) continue;
        current = line.session;
        this.messages.push(line.message);
        this.byNode.set(line.id, { sessionId: line.session, message: line.message });
        this.nodes += 1;
      }
    }
    if (current !== undefined) this.id = current;
  }
}

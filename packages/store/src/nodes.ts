// The node tree (SPEC D3): append in O(1), read a node, the active leaf, the branch tips.
// Paths are assembled by path.ts.

import type { Message, Origin } from "@iris/llm";
import type { Database, Statement, Transaction } from "./driver.js";
import { StoreError } from "./errors.js";
import { newId } from "./ids.js";
import { PathReader } from "./path.js";
import {
  ACTIVE_LEAF_SQL,
  NODE_COLUMNS,
  type NodeDbRow,
  type NodeKind,
  type NodeRow,
  toNodeRow,
} from "./rows.js";
import { searchTextOf } from "./search-text.js";
import { requireOneOf } from "./validate.js";

export interface NodeInput {
  /** The parent; omitted = the session's active leaf; null = a new root. Compactions are roots. */
  parentId?: string | null;
  kind: NodeKind;
  message?: Message;
  /** Plain text of a compaction summary or a note. */
  text?: string;
  /** A compaction's pointer to the last node it summarised. */
  expandsTo?: string;
  /** Defaults to an assistant message's own origin. */
  origin?: Origin;
  /** Token count of this node's content. */
  tokens?: number;
  /** Make the new node the session's active leaf (default true). */
  setActive?: boolean;
  /** Defaults to a new time-ordered UUID; 1-200 characters without control characters. */
  id?: string;
}

const KINDS: readonly NodeKind[] = ["message", "compaction", "note"];
const ROLES: readonly Message["role"][] = ["user", "assistant", "tool"];

/** The sessions row's leaf: `pinned` counts only while the session does not follow its newest node. */
interface LeafState {
  pinned: string | null;
  follows: 0 | 1;
}

/** The session's newest node: a node whose parent it is continues its run (migration 0004). */
interface NewestNode {
  id: string;
  seq: number;
  run_start: number | null;
}

export class NodeRepo {
  private readonly insert: Statement;
  private readonly byId: Statement<NodeDbRow>;
  private readonly sessionOfNode: Statement<{ session_id: string }>;
  private readonly leafOf: Statement<LeafState>;
  private readonly activeLeaf: Statement<{ leaf: string | null }>;
  private readonly setLeaf: Statement;
  private readonly newestOf: Statement<NewestNode>;
  private readonly paths: PathReader;
  private readonly links: Statement<unknown[]>;
  private readonly appendTx: Transaction<(sessionId: string, inputs: readonly NodeInput[]) => NodeRow[]>;

  constructor(db: Database) {
    this.insert = db.prepare(
      "INSERT INTO nodes (id, session_id, parent_id, run_start, kind, role, payload, body_text, search_text, " +
        "expands_to, provider, api_mode, model, token_count, input_tokens, output_tokens, cache_read_tokens, " +
        "cache_write_tokens, reasoning_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.byId = db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes WHERE id = ?`);
    this.sessionOfNode = db.prepare("SELECT session_id FROM nodes WHERE id = ?");
    this.leafOf = db.prepare(
      "SELECT active_leaf_id AS pinned, leaf_follows_newest AS follows FROM sessions WHERE id = ?",
    );
    this.activeLeaf = db.prepare(`SELECT ${ACTIVE_LEAF_SQL} AS leaf FROM sessions WHERE id = ?`);
    this.setLeaf = db.prepare("UPDATE sessions SET active_leaf_id = ?, leaf_follows_newest = ? WHERE id = ?");
    this.newestOf = db.prepare(
      "SELECT id, seq, run_start FROM nodes WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
    );
    this.paths = new PathReader(db);
    this.links = db.prepare("SELECT id, parent_id FROM nodes WHERE session_id = ? ORDER BY seq").raw(true);
    this.appendTx = db.transaction((sessionId: string, inputs: readonly NodeInput[]) =>
      this.appendInTx(sessionId, inputs),
    );
  }

  /** Appends nodes in one write transaction; each omitted parent is the leaf left by the previous. */
  append(sessionId: string, inputs: readonly NodeInput[]): NodeRow[] {
    return this.appendTx.immediate(sessionId, inputs);
  }

  find(id: string): NodeRow | undefined {
    const row = this.byId.get(id);
    return row ? toNodeRow(row) : undefined;
  }

  get(id: string): NodeRow {
    const row = this.find(id);
    if (!row) throw new StoreError("not_found", `no node with id ${JSON.stringify(id)}`);
    return row;
  }

  /** The path from the root to `leafId`, root first. */
  pathToRoot(leafId: string): NodeRow[] {
    return this.paths.pathToRoot(leafId);
  }

  activeLeafId(sessionId: string): string | null {
    const row = this.activeLeaf.get(sessionId);
    if (!row) throw new StoreError("not_found", `no session with id ${JSON.stringify(sessionId)}`);
    return row.leaf;
  }

  setActiveLeaf(sessionId: string, nodeId: string): void {
    this.assertInSession(nodeId, sessionId);
    this.setLeaf.run(nodeId, 0, sessionId);
  }

  /** Empties the active path: the next append is a new root; the old nodes stay readable. */
  clearActiveLeaf(sessionId: string): void {
    this.activeLeafId(sessionId);
    this.setLeaf.run(null, 0, sessionId);
  }

  /** Every leaf of the session's tree (the tip of each branch), oldest first. */
  listLeaves(sessionId: string): NodeRow[] {
    this.activeLeafId(sessionId);
    // One scan of the session's (id, parent) pairs; children are always in their parent's session.
    const links = this.links.all(sessionId) as [string, string | null][];
    const parents = new Set(links.map(([, parent]) => parent));
    return links.filter(([id]) => !parents.has(id)).map(([id]) => this.get(id));
  }

  assertInSession(nodeId: string, sessionId: string): void {
    const row = this.sessionOfNode.get(nodeId);
    if (!row) throw new StoreError("not_found", `no node with id ${JSON.stringify(nodeId)}`);
    if (row.session_id !== sessionId) {
      throw new StoreError(
        "invalid_input",
        `node ${nodeId} belongs to session ${row.session_id}, not ${JSON.stringify(sessionId)}`,
      );
    }
  }

  /**
   * Appends after the active leaf. While a session follows its newest node (migration 0004)
   * an append changes nothing in the sessions row; only a node appended without moving the
   * leaf pins the leaf where it was, and the next node that moves it unpins.
   */
  private appendInTx(sessionId: string, inputs: readonly NodeInput[]): NodeRow[] {
    const before = this.leafState(sessionId);
    let newest = this.newestOf.get(sessionId);
    let follows = before.follows === 1;
    let pinned = before.pinned;
    let leaf = follows ? (newest?.id ?? null) : pinned;
    const now = Date.now();
    const out: NodeRow[] = [];
    for (const input of inputs) {
      const kind = requireOneOf(input.kind, KINDS, "node kind");
      const parentId = this.parentFor(input, kind, leaf);
      // The session's newest node is known to be in the session.
      const continues = parentId !== null && parentId === newest?.id;
      if (parentId !== null && !continues) this.assertInSession(parentId, sessionId);
      const runStart = continues && newest ? (newest.run_start ?? newest.seq) : null;
      const row = this.insertOne(sessionId, input, kind, parentId, runStart, now);
      newest = { id: row.id, seq: row.seq, run_start: runStart };
      if (input.setActive !== false) {
        leaf = row.id;
        follows = true;
      } else if (follows) {
        pinned = leaf;
        follows = false;
      }
      out.push(row);
    }
    if (follows !== (before.follows === 1) || pinned !== before.pinned) {
      this.setLeaf.run(follows ? null : pinned, follows ? 1 : 0, sessionId);
    }
    return out;
  }

  private leafState(sessionId: string): LeafState {
    const state = this.leafOf.get(sessionId);
    if (!state) throw new StoreError("not_found", `no session with id ${JSON.stringify(sessionId)}`);
    return state;
  }

  private parentFor(input: NodeInput, kind: NodeKind, leaf: string | null): string | null {
    if (kind === "compaction") {
      if (input.parentId) {
        throw new StoreError("invalid_input", "a compaction node has no parent (it starts a new root)");
      }
      return null;
    }
    return input.parentId === undefined ? leaf : input.parentId;
  }

  private insertOne(
    sessionId: string,
    input: NodeInput,
    kind: NodeKind,
    parentId: string | null,
    runStart: number | null,
    now: number,
  ): NodeRow {
    const { message, role, origin, usage, id } = checkedNode(input, kind);
    if (input.expandsTo !== undefined && !this.sessionOfNode.get(input.expandsTo)) {
      throw new StoreError("not_found", `expandsTo points at no node (${JSON.stringify(input.expandsTo)})`);
    }
    const payload = message ? JSON.stringify(message) : null;
    const text = input.text ?? null;
    const info = this.insert.run(
      id,
      sessionId,
      parentId,
      runStart,
      kind,
      role,
      payload,
      text,
      searchTextOf(message, input.text),
      input.expandsTo ?? null,
      origin?.provider ?? null,
      origin?.apiMode ?? null,
      origin?.model ?? null,
      input.tokens ?? null,
      usage?.inputTokens ?? null,
      usage?.outputTokens ?? null,
      usage?.cacheReadTokens ?? null,
      usage?.cacheWriteTokens ?? null,
      usage?.reasoningTokens ?? null,
      now,
    );
    // The message handed back is a copy parsed from the stored JSON, so later changes to the
    // caller's object cannot differ from what was stored. It is parsed on first read: most
    // callers only want the id, and parsing every appended payload cost ~13% of an append.
    let copy: Message | null | undefined = payload === null ? null : undefined;
    return {
      id,
      seq: Number(info.lastInsertRowid),
      sessionId,
      parentId,
      kind,
      role,
      get message(): Message | null {
        if (copy === undefined) copy = JSON.parse(payload as string) as Message;
        return copy;
      },
      set message(value: Message | null) {
        copy = value;
      },
      text,
      expandsTo: input.expandsTo ?? null,
      origin: origin ? { provider: origin.provider, apiMode: origin.apiMode, model: origin.model } : null,
      tokens: input.tokens ?? null,
      usage: usage ? { ...usage } : null,
      createdAt: now,
    };
  }
}

/** What every engine checks of a node before it stores it, and the columns it derives. */
export function checkedNode(input: NodeInput, kind: NodeKind) {
  const message = input.message;
  if (kind === "message" && !message) throw new StoreError("invalid_input", "a message node needs `message`");
  if (!message && (input.text === undefined || input.text === "")) {
    throw new StoreError("invalid_input", `a ${kind} node needs \`message\` or \`text\``);
  }
  const role = message ? requireOneOf(message.role, ROLES, "message role") : null;
  if (input.expandsTo !== undefined && kind !== "compaction") {
    throw new StoreError("invalid_input", "only a compaction node may carry `expandsTo`");
  }
  return {
    message,
    role,
    origin: input.origin ?? (message?.role === "assistant" ? message.origin : null),
    usage: message?.role === "assistant" ? message.usage : null,
    id: input.id === undefined ? newId() : requireNodeId(input.id),
  };
}

/** Caller-chosen ids: no control characters (path reads join ids with U+001F, see path-runs.ts). */
function requireNodeId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0 || id.length > 200 || /[\u0000-\u001f\u007f]/.test(id)) {
    throw new StoreError(
      "invalid_input",
      `a node id must be 1-200 characters without control characters, got ${JSON.stringify(id)}`,
    );
  }
  return id;
}

// Checkpoints the WAL from a worker thread once a store writes a lot (issue 3: append
// >= 20,000 nodes/s). About a third of an append's time went to SQLite copying WAL pages back
// into the database file and fsyncing it, on the thread that appends. A second connection in a
// worker does that copy on another core with `wal_checkpoint(PASSIVE)`, which never waits for
// (or blocks) the writer or any reader; a busy or failed pass is simply tried again.
//
// The worker starts only after the WAL has grown past START_BYTES, so a short CLI run never pays
// for a thread. SQLite's own auto-checkpoint stays on as a safety valve, at a higher mark while
// the worker runs, so the WAL stays bounded even if the worker falls behind or dies.
//
// The worker has no timer: a pass runs when an append asks for one, one pass at a time, and one
// more when appends came in meanwhile. A process whose WAL is quiet (a gateway at night) never
// wakes it. Starting the worker happens after an append committed; if it fails, the append
// stands and SQLite's auto-checkpoint carries on alone.
import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { type Database, DRIVER_PATH } from "./driver.js";

/** How large the WAL must get before a worker is worth starting (about 500 pages). */
const START_BYTES = 2 * 1024 * 1024;
/** Appends between two looks at the WAL's size. */
const CHECK_EVERY = 64;
/** SQLite's auto-checkpoint mark (pages) while the worker runs; the default is 1000. */
const VALVE_PAGES = 8000;

// CommonJS, run with `eval`: the CLI is one bundled file, so there is no worker file to point at.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0, fileMustExist: true });
parentPort.on("message", (m) => {
  if (m === "pass") {
    try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {}
    parentPort.postMessage("done");
    return;
  }
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export type CheckpointerState = "idle" | "running" | "stopped";

export class Checkpointer {
  private worker: Worker | undefined;
  private appends = 0;
  private stateNow: CheckpointerState = "idle";
  /** A pass was asked for and has not answered yet. */
  private inFlight = false;
  /** Appends came after the pass in flight was asked for. */
  private dirty = false;
  /** How many passes the worker has finished (tests, diagnostics). */
  passes = 0;

  constructor(
    private readonly db: Database,
    private readonly options: {
      /** WAL size that starts the worker (default 2 MiB). */
      startBytes?: number;
      /** Makes the worker (tests put a failing one here). */
      spawn?: (source: string, data: { driver: string; path: string }) => Worker;
    } = {},
  ) {}

  get state(): CheckpointerState {
    return this.stateNow;
  }

  /** Called after every append transaction has committed; never throws. */
  afterAppend(): void {
    if (this.stateNow === "running") {
      this.askForPass();
      return;
    }
    if (this.stateNow !== "idle" || ++this.appends % CHECK_EVERY !== 0) return;
    try {
      if (walBytes(this.db.name) >= (this.options.startBytes ?? START_BYTES)) this.start();
    } catch {
      // No thread (resource limits, a missing driver file): the committed append stands.
      this.fallBack();
    }
  }

  private askForPass(): void {
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    this.inFlight = true;
    this.dirty = false;
    this.worker?.postMessage("pass");
  }

  /** Stops the worker; it closes its connection after any pass in progress. */
  close(): void {
    if (this.worker) {
      this.worker.postMessage("close");
      this.worker = undefined;
    }
    this.stateNow = "stopped";
  }

  private start(): void {
    const data = { driver: DRIVER_PATH, path: this.db.name };
    const worker = this.options.spawn
      ? this.options.spawn(WORKER_SOURCE, data)
      : new Worker(WORKER_SOURCE, { eval: true, workerData: data });
    // A worker must never keep the process alive or take it down.
    worker.unref();
    worker.on("error", () => this.fallBack());
    worker.on("exit", () => {
      if (this.worker === worker) this.fallBack();
    });
    worker.on("message", () => {
      this.passes += 1;
      this.inFlight = false;
      if (this.dirty && this.worker === worker) this.askForPass();
    });
    this.worker = worker;
    this.stateNow = "running";
    this.db.pragma(`wal_autocheckpoint = ${VALVE_PAGES}`);
    this.askForPass();
  }

  /** The worker died: SQLite's own auto-checkpoint takes over again at its usual mark. */
  private fallBack(): void {
    this.worker = undefined;
    this.stateNow = "stopped";
    try {
      if (this.db.open) this.db.pragma("wal_autocheckpoint = 1000");
    } catch {
      // The connection is closing; nothing is left to protect.
    }
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0; // no WAL yet, or an in-memory database
  }
}

// Checkpoints the WAL from a worker thread once a store writes a lot (issue 3: append
// >= 20,000 nodes/s). About a third of an append's time went to SQLite copying WAL pages back
// into the database file and fsyncing it, on the thread that appends. A second connection in a
// worker does that copy on another core with `wal_checkpoint(PASSIVE)`, which never waits for
// (or blocks) the writer or any reader; a busy or failed pass is simply tried again.
//
// The worker starts only after the WAL has grown past START_BYTES, so a short CLI run never pays
// for a thread. SQLite's own auto-checkpoint stays on as a safety valve, at a higher mark while
// the worker runs, so the WAL stays bounded even if the worker falls behind or dies.
import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { type Database, DRIVER_PATH } from "./driver.js";

/** How large the WAL must get before a worker is worth starting (about 500 pages). */
const START_BYTES = 2 * 1024 * 1024;
/** Appends between two looks at the WAL's size. */
const CHECK_EVERY = 64;
/** How often the worker checkpoints, in ms. */
const PASS_MS = 25;
/** SQLite's auto-checkpoint mark (pages) while the worker runs; the default is 1000. */
const VALVE_PAGES = 8000;

// CommonJS, run with `eval`: the CLI is one bundled file, so there is no worker file to point at.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0, fileMustExist: true });
const pass = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(pass, workerData.passMs);
parentPort.on("message", () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export type CheckpointerState = "idle" | "running" | "stopped";

export class Checkpointer {
  private worker: Worker | undefined;
  private appends = 0;
  private stateNow: CheckpointerState = "idle";

  constructor(private readonly db: Database) {}

  get state(): CheckpointerState {
    return this.stateNow;
  }

  /** Called after every append transaction; cheap except every CHECK_EVERY-th call. */
  afterAppend(): void {
    if (this.stateNow !== "idle" || ++this.appends % CHECK_EVERY !== 0) return;
    if (walBytes(this.db.name) >= START_BYTES) this.start();
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
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: DRIVER_PATH, path: this.db.name, passMs: PASS_MS },
    });
    // A worker must never keep the process alive or take it down.
    worker.unref();
    worker.on("error", () => this.fallBack());
    worker.on("exit", () => {
      if (this.worker === worker) this.fallBack();
    });
    this.worker = worker;
    this.stateNow = "running";
    this.db.pragma(`wal_autocheckpoint = ${VALVE_PAGES}`);
  }

  /** The worker died: SQLite's own auto-checkpoint takes over again at its usual mark. */
  private fallBack(): void {
    this.worker = undefined;
    this.stateNow = "stopped";
    if (this.db.open) this.db.pragma("wal_autocheckpoint = 1000");
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0; // no WAL yet, or an in-memory database
  }
}

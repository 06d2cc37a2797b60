// The gateway's side of cron on a Postgres profile (cron-queue.ts): the workers run the ticks and
// hand each answer over as a job on the platform's delivery queue, keyed `cron:<job>:<slot>`;
// the gateway that runs the platform takes them and sends each through its outbox under that
// key, so a job handed over twice (a retried tick, a second gateway) is still sent once.
import type { JobQueue, QueueWorker } from "@iris/host";
import type { Logger } from "@iris/llm";
import { z } from "zod";
import type { Delivery } from "./cron-queue.js";
import type { Platform } from "./gateway-chat.js";

/** Opens the delivery queue of one platform (`<queue.name>-deliveries-<platform>`). */
export type DeliveryQueues = (platform: string) => Promise<JobQueue<Delivery, unknown>>;

const delivery = z.object({ platform: z.string(), chatId: z.string().min(1), text: z.string() });

export class CronDeliveries {
  private readonly open: { queue: JobQueue<Delivery, unknown>; worker: QueueWorker }[] = [];

  constructor(
    private readonly queues: DeliveryQueues,
    private readonly logger: Logger,
  ) {}

  /** Takes the deliveries of every platform this gateway runs. */
  async start(platforms: ReadonlyMap<string, Platform>): Promise<void> {
    for (const [id, p] of platforms) {
      const queue = await this.queues(id);
      const worker = await queue.work(
        async (job) => {
          const d = delivery.safeParse(job.data);
          if (!d.success) throw new Error(`delivery ${job.id}: not a delivery (${d.error.message})`);
          const to = { platform: id, chatId: d.data.chatId };
          const { sent, skipped } = await p.deliverer.deliver(job.id, to, d.data.text);
          this.logger.info("cron answer delivered", { key: job.id, sent, skipped });
          return { sent, skipped };
        },
        // A sent delivery's job goes: handed over again, the outbox knows its key.
        { concurrency: 1, onCompleted: (key) => void queue.remove(key).catch(() => {}) },
      );
      this.open.push({ queue, worker });
    }
  }

  /** Stops taking deliveries; one being sent ends first. */
  async stop(): Promise<void> {
    for (const { queue, worker } of this.open.splice(0)) {
      await worker.close("finish");
      await queue.close();
    }
  }
}

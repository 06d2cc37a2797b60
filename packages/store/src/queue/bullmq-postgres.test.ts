import { skipWithoutPostgres, startPostgres } from "@iris/testkit";
import { describe } from "vitest";
import { queueContract } from "./test/contract.js";

describe.skipIf(skipWithoutPostgres())("queue contract on PostgreSQL", () => {
  queueContract("postgres", async () => {
    const pg = await startPostgres();
    return { url: pg.url(), stop: () => pg.stop("immediate"), start: pg.start, close: pg.close };
  });
});

import { skipWithoutRedis, startRedis } from "@iris/testkit";
import { describe } from "vitest";
import { queueContract } from "./test/contract.js";

describe.skipIf(skipWithoutRedis())("queue contract on Redis", () => {
  queueContract("redis", startRedis);
});

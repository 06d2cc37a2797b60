// GET /v1/responses/{id}, DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items
// (SPEC E3) through the official openai SDK: a stored response comes back whole, its input items
// page by `after`/`limit`/`order` (a continued response lists the earlier items too), a deleted
// one is gone, and another API key's response is a 404 in OpenAI's error shape. A model id that
// names one route says so when the fallback chain answered instead (SPEC F2).
import { startFakeLlm } from "@iris/testkit";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, BOB, type Harness, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

describe("stored responses", () => {
  it("retrieve returns the response as created, streamed or not; another key gets 404", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "first answer" }, { text: "second answer" });
    const client = h.client();
    const first = await client.responses.create({ model: "iris", input: "hello" });
    const got = await client.responses.retrieve(first.id);
    expect(got.id).toBe(first.id);
    expect(got.status).toBe("completed");
    expect(got.output_text).toBe("first answer");
    expect(got.usage).toEqual(first.usage);
    const streamed = await client.responses
      .stream({ model: "iris", input: "again", previous_response_id: first.id })
      .finalResponse();
    const again = await client.responses.retrieve(streamed.id);
    expect(again.output_text).toBe("second answer");
    expect(again.previous_response_id).toBe(first.id);

    const err = await h
      .client(BOB)
      .responses.retrieve(first.id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).error).toEqual({
      message: `Response with id '${first.id}' not found.`,
      type: "invalid_request_error",
      code: null,
      param: null,
    });
    await expect(h.client(BOB).responses.inputItems.list(first.id)).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    await expect(h.client(BOB).responses.delete(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // Bob's attempts changed nothing: Alice still has it.
    expect((await client.responses.retrieve(first.id)).id).toBe(first.id);
    // A conversation's own key is no response id.
    await expect(client.responses.retrieve("conv:x")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("input_items lists the context newest first, pages by after/limit, and order=asc", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "one" }, { text: "two" });
    const client = h.client();
    const first = await client.responses.create({
      model: "iris",
      input: [
        { role: "developer", content: "be brief" },
        { role: "user", content: [{ type: "input_text", text: "q1" }] },
      ],
    });
    const second = await client.responses.create({
      model: "iris",
      input: "q2",
      previous_response_id: first.id,
    });
    const texts = (items: { type: string }[]) =>
      items.map((i) => {
        const m = i as { role?: string; content?: { text?: string }[] };
        return `${m.role}:${m.content?.map((p) => p.text).join("")}`;
      });
    const page = await client.responses.inputItems.list(second.id);
    expect(texts(page.data)).toEqual(["user:q2", "assistant:one", "user:q1", "developer:be brief"]);
    expect(page.has_more).toBe(false);
    // Two at a time, oldest first: the SDK follows `after` (the last id of each page) itself.
    const pages: string[][] = [];
    let p = await client.responses.inputItems.list(second.id, { limit: 2, order: "asc" });
    for (;;) {
      pages.push(texts(p.data));
      if (!p.hasNextPage()) break;
      p = await p.getNextPage();
    }
    expect(pages).toEqual([
      ["developer:be brief", "user:q1"],
      ["assistant:one", "user:q2"],
    ]);
    // The ids are the same on every read (the cursor names the same item each time).
    const again = await client.responses.inputItems.list(second.id, { order: "asc" });
    expect(again.data.map((i) => i.id)).toEqual(
      (await client.responses.inputItems.list(second.id)).data.map((i) => i.id).reverse(),
    );
    const firstItems = await client.responses.inputItems.list(first.id);
    expect(texts(firstItems.data)).toEqual(["user:q1", "developer:be brief"]);
    // A bad cursor or limit is a 400 naming the parameter.
    const bad = await client.responses.inputItems
      .list(second.id, { after: "msg_nothing" })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("after");
    await expect(client.responses.inputItems.list(second.id, { limit: 0 })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
  });

  it("input_items of a continued client tool call list the call and its output", async () => {
    h = await startHarness();
    h.fake.enqueue(
      { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" }, id: "call_w" }] },
      { text: "sunny" },
    );
    const client = h.client();
    const tools = [
      {
        type: "function" as const,
        name: "get_weather",
        parameters: { type: "object", properties: { city: { type: "string" } } },
        strict: false,
      },
    ];
    const first = await client.responses.create({ model: "iris", input: "weather?", tools });
    const call = first.output.find((o) => o.type === "function_call");
    expect(call).toMatchObject({ call_id: "call_w", name: "get_weather" });
    const second = await client.responses.create({
      model: "iris",
      previous_response_id: first.id,
      tools,
      input: [{ type: "function_call_output", call_id: "call_w", output: "sun, 21 C" }],
    });
    expect(second.output_text).toBe("sunny");
    const items = (await client.responses.inputItems.list(second.id, { order: "asc" })).data;
    expect(items.map((i) => i.type)).toEqual(["message", "function_call", "function_call_output"]);
    expect(items[1]?.id).toBe(call?.id);
    expect(items[2]).toMatchObject({ call_id: "call_w", output: "sun, 21 C" });
  });

  it("delete removes the response (retrieve and previous_response_id then 404); store: false keeps none", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "a" }, { text: "b" });
    const client = h.client();
    const r = await client.responses.create({ model: "iris", input: "hi" });
    const res = await fetch(`${h.baseURL}/responses/${r.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: r.id, object: "response", deleted: true });
    await expect(client.responses.retrieve(r.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.delete(r.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.responses.create({ model: "iris", input: "more", previous_response_id: r.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const unstored = await client.responses.create({ model: "iris", input: "hi", store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // Deleted by the SDK too (it answers nothing).
    h.fake.enqueue({ text: "c" });
    const kept = await client.responses.create({ model: "iris", input: "keep?" });
    await client.responses.delete(kept.id);
    await expect(client.responses.inputItems.list(kept.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("a named route that fell back", () => {
  it("answers with the model that answered and says so in headers, streamed and not", async () => {
    const dead = await startFakeLlm();
    const deadUrl = dead.baseUrl;
    await dead.close(); // nothing listens there now: the route fails at once
    h = await startHarness({
      serve: ["  models_per_route: true"],
      providers: ["  spare:", `    base_url: ${deadUrl}`, "    api_mode: chat_completions"],
      config: [
        "fallback_providers:",
        "  - {provider: spare, model: spare-model}",
        "  - {provider: openai, model: gpt-4.1}",
      ],
    });
    h.fake.setHandler(() => ({ text: "from the fallback" }));
    const client = h.client();
    const { data, response } = await client.chat.completions
      .create({ model: "iris/spare/spare-model", messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("from the fallback");
    expect(data.model).toBe("iris/openai/gpt-4.1");
    expect(response.headers.get("x-iris-route")).toBe("openai/gpt-4.1");
    expect(response.headers.get("x-iris-fallback-from")).toBe("spare/spare-model");

    const r = await client.responses.create({ model: "iris/spare/spare-model", input: "hi" });
    expect(r.model).toBe("iris/openai/gpt-4.1");
    const streamed = await client.responses
      .stream({ model: "iris/spare/spare-model", input: "hi" })
      .finalResponse();
    expect(streamed.model).toBe("iris/openai/gpt-4.1");
    expect((await client.responses.retrieve(streamed.id)).model).toBe("iris/openai/gpt-4.1");
    const chunks: string[] = [];
    const stream = await client.chat.completions.create({
      model: "iris/spare/spare-model",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    for await (const chunk of stream) chunks.push(chunk.model);
    expect(chunks.at(-1)).toBe("iris/openai/gpt-4.1");

    // The route asked for that answers itself is named as asked, with no fallback header.
    const own = await client.chat.completions
      .create({ model: "iris/openai/gpt-4.1-mini", messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(own.data.model).toBe("iris/openai/gpt-4.1-mini");
    expect(own.response.headers.get("x-iris-route")).toBe("openai/gpt-4.1-mini");
    expect(own.response.headers.get("x-iris-fallback-from")).toBeNull();
    expect(h.fake.violations).toEqual([]);
  });
});

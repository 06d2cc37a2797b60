import { registerSecret } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { commandEnv } from "./env.js";
import { SecretRegistry } from "./secrets.js";

describe("commandEnv and the secret registry", () => {
  it("strips registered names and any variable holding a registered value, whatever its name", () => {
    const secrets = new SecretRegistry();
    secrets.addNames(["AWS_BEARER_TOKEN_BEDROCK", "MY_LLM_KEY"]);
    secrets.addValues(["value-of-a-secret-1234"]);
    registerSecret("registered-for-redaction-5678");
    const env = commandEnv(
      {
        PATH: "/usr/bin",
        AWS_BEARER_TOKEN_BEDROCK: "abc",
        MY_LLM_KEY: "def",
        INNOCENT_NAME: "value-of-a-secret-1234",
        ALSO_INNOCENT: "prefix:registered-for-redaction-5678",
        OPENAI_API_KEY: "sk-x",
        HARMLESS: "short",
      },
      secrets,
    );
    expect(Object.keys(env).sort()).toEqual(["GIT_PAGER", "HARMLESS", "PAGER", "PATH"]);
  });
});

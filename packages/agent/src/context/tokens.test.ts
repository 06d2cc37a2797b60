import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { assistant, call, result, user } from "./test-support.js";
import { estimateMessagesTokens, estimateTokens } from "./tokens.js";

const CJK_SAMPLES: Record<string, string> = {
  korean: "한국어 검색 테스트 문장입니다. 압축이 일어나면 세션이 쪼개지고 부모 세션 ID로 연결됩니다.",
  korean2:
    "컨텍스트 윈도우가 512K 미만인 모델은 임계값 하한이 0.75로 상향된다. 꼬리 보호는 예산 기준이지만 개수 하한이 따로 있다.",
  korean3:
    "배치 러너는 아무것도 안 함 (콜백 미등록). 요약 모델의 컨텍스트가 메인보다 작으면 요약 생성이 실패한다.",
  japanese: "日本語のテキストは、英語よりも多くのトークンを使うことがあります。圧縮は情報の損失です。",
  chinese: "上下文窗口由三层决定：模型架构的最大值、服务路由的实际窗口以及客户端的认知。",
  mixed: "README.md 파일을 읽고 `npm test`를 실행해 주세요. 테스트가 3개 실패했습니다 (exit 1).",
};

describe("estimateTokens", () => {
  for (const [name, text] of Object.entries(CJK_SAMPLES)) {
    it(`does not underestimate ${name} against o200k_base and cl100k_base`, () => {
      const estimate = estimateTokens(text);
      expect(estimate).toBeGreaterThanOrEqual(o200k(text));
      expect(estimate).toBeGreaterThanOrEqual(cl100k(text));
    });
  }

  it("estimates English and code within a sane band of the real count", () => {
    const samples = [
      "The quick brown fox jumps over the lazy dog while the agent compresses its memory.",
      'function foo(a, b) { return a + b; } // {"path":"/tmp/x.ts","content":"hello"}',
      "export async function completeLlm(runtime: Runtime, request: LlmRequest): Promise<CompleteResult> {}",
    ];
    for (const text of samples) {
      const ratio = estimateTokens(text) / cl100k(text);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.8);
    }
  });

  it("is zero for empty text and counts emoji as several tokens", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("🎉🎉🚀")).toBeGreaterThanOrEqual(cl100k("🎉🎉🚀"));
  });
});

describe("estimateMessagesTokens", () => {
  it("adds up every part of every message and the system prompt", () => {
    const messages = [
      user("hello there"),
      call("c1", "read_file", { path: "/a/b.ts" }),
      result("c1", "read_file", "const x = 1;"),
      assistant("done"),
    ];
    const total = estimateMessagesTokens(messages);
    const withSystem = estimateMessagesTokens(messages, "You are Iris.");
    expect(total).toBeGreaterThan(estimateTokens("hello there") + estimateTokens("const x = 1;"));
    expect(withSystem).toBeGreaterThan(total);
    expect(estimateMessagesTokens([...messages, user(CJK_SAMPLES.korean as string)])).toBeGreaterThan(
      total + cl100k(CJK_SAMPLES.korean as string),
    );
  });
});

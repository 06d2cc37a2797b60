import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
const ids: Record<string, string> = {};
let s1: string;
let s2: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  store = openStore(join(dir, "state.db"));
  s1 = store.createSession({ source: "cli" }).id;
  s2 = store.createSession({ source: "cli" }).id;
  const add = (key: string, session: string, text: string) => {
    ids[key] = store.appendNode(session, { kind: "message", message: { role: "user", content: text } }).id;
  };
  add("ko", s1, "한국어 검색 테스트 문장입니다. 데이터베이스를 확인하세요.");
  add("ja", s1, "日本語のテキストを検索できますか");
  add("zh", s2, "这是中文文本搜索测试");
  add("en", s2, "The quick brown fox jumps over the lazy dog; ripgrep finds it.");
  add("syntax", s1, 'He said "AND" NEAR(x y) - col:value * OR');
  ids.tool = store.appendNode(s1, {
    kind: "message",
    message: {
      role: "tool",
      callId: "c",
      toolName: "shell",
      content: "exit code 0: compiled widgets",
      isError: false,
    },
  }).id;
  ids.note = store.appendNode(s2, { kind: "note", text: "repair: added missing tool result" }).id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const found = (query: string, opts = {}) => store.search(query, opts).map((h) => h.nodeId);

describe("search", () => {
  it("finds English by word through the word index", () => {
    const hits = store.search("fox");
    expect(hits.map((h) => h.nodeId)).toEqual([ids.en]);
    expect(hits[0]).toMatchObject({ sessionId: s2, via: "words", role: "user" });
    expect(hits[0]?.snippet).toContain("[fox]");
    expect(found("quick dog")).toEqual([ids.en]);
    expect(found("widgets")).toEqual([ids.tool]);
    expect(found("repair")).toEqual([ids.note]);
    expect(found("elephant")).toEqual([]);
  });

  it("finds Korean, Japanese and Chinese text by substring", () => {
    const ko = store.search("국어 검색"); // a 2-character term and a word
    expect(ko.map((h) => h.nodeId)).toEqual([ids.ko]);
    expect(store.search("한국어")[0]).toMatchObject({ nodeId: ids.ko, via: "trigram" });
    expect(store.search("국어")[0]).toMatchObject({ nodeId: ids.ko, via: "like" });
    expect(store.search("국어")[0]?.snippet).toContain("[국어]");
    expect(found("베이스")).toEqual([ids.ko]); // inside 데이터베이스를
    expect(found("テキスト")).toEqual([ids.ja]);
    expect(found("検索")).toEqual([ids.ja]);
    expect(found("文本搜索")).toEqual([ids.zh]);
    expect(found("中文")).toEqual([ids.zh]);
    expect(found("없는말")).toEqual([]);
  });

  it("falls back to substrings for a piece of a word and for short terms", () => {
    expect(store.search("ripgr")[0]).toMatchObject({ nodeId: ids.en, via: "trigram" });
    expect(store.search("ox")[0]).toMatchObject({ nodeId: ids.en, via: "like" });
    expect(found("rown", { substring: true })).toEqual([ids.en]);
  });

  it("never throws on FTS syntax or LIKE wildcards in the query", () => {
    for (const q of [
      '"',
      '"AND"',
      "NEAR(x y)",
      "col:value",
      "*",
      "-",
      "OR",
      "fox*",
      "a%",
      "_",
      "\\",
      "(((",
      "^",
    ]) {
      expect(() => store.search(q), q).not.toThrow();
    }
    expect(found('"AND"')).toEqual([ids.syntax]);
    expect(found("NEAR(x")).toEqual([ids.syntax]);
    expect(found("%")).toEqual([]);
    expect(found("   ")).toEqual([]);
  });

  it("excludes a session and honours the limit, newest first", () => {
    expect(found("테스트", { excludeSessionId: s1 })).toEqual([]);
    expect(found("the", { excludeSessionId: s1 })).toEqual([ids.en]);
    const a = store.appendNode(s1, { kind: "message", message: { role: "user", content: "fox again" } }).id;
    expect(found("fox")).toEqual([a, ids.en]);
    expect(found("fox", { limit: 1 })).toEqual([a]);
  });

  it("keeps both indexes in sync with the nodes table", () => {
    const count = (table: string) =>
      store.db
        .prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table} MATCH ?`)
        .get('"fox"')?.n;
    store.catchUpSearchIndex();
    expect(count("nodes_fts")).toBe(1);
    expect(count("nodes_fts_trigram")).toBe(1);
    store.db.prepare("UPDATE nodes SET search_text = 'no animals here' WHERE id = ?").run(ids.en);
    expect(count("nodes_fts")).toBe(0);
    expect(count("nodes_fts_trigram")).toBe(0);
    expect(found("animals")).toEqual([ids.en]);
    const loose = store.appendNode(s1, { kind: "note", text: "zebras", setActive: false, parentId: null });
    expect(found("zebras")).toEqual([loose.id]);
    store.db.prepare("DELETE FROM nodes WHERE id = ?").run(loose.id);
    expect(found("zebras")).toEqual([]);
    expect(found("zebr")).toEqual([]);
    for (const t of ["nodes_fts", "nodes_fts_trigram"]) {
      expect(() => store.db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run()).not.toThrow();
    }
  });

  it("rebuilds both indexes from the nodes table", () => {
    store.catchUpSearchIndex();
    store.db.exec("INSERT INTO nodes_fts(nodes_fts) VALUES ('delete-all')");
    store.db.exec("INSERT INTO nodes_fts_trigram(nodes_fts_trigram) VALUES ('delete-all')");
    expect(found("fox")).toEqual([]);
    expect(found("한국어")).toEqual([]);
    store.rebuildSearchIndex();
    expect(found("fox")).toEqual([ids.en]);
    expect(found("한국어")).toEqual([ids.ko]);
  });

  it("indexes appended nodes before the next search, not inside the append", () => {
    const count = (table: string, phrase: string) =>
      store.db
        .prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table} MATCH ?`)
        .get(`"${phrase}"`)?.n;
    store.catchUpSearchIndex();
    expect(store.searchIndexBacklog()).toBe(0);
    const fresh = store.appendNodes(s1, [
      { kind: "message", message: { role: "user", content: "pelican 펠리컨입니다" } },
      { kind: "note", text: "cormorant" },
    ]);
    // The append wrote the nodes only; the indexes have not seen them yet.
    expect(store.searchIndexBacklog()).toBe(2);
    expect(count("nodes_fts", "pelican")).toBe(0);
    // A search right after the append still finds them: it catches the indexes up first.
    expect(found("pelican")).toEqual([fresh[0]?.id]);
    expect(found("펠리컨")).toEqual([fresh[0]?.id]);
    expect(found("cormorant")).toEqual([fresh[1]?.id]);
    expect(store.searchIndexBacklog()).toBe(0);
    expect(count("nodes_fts", "pelican")).toBe(1);
    expect(count("nodes_fts_trigram", "펠리컨")).toBe(1);
    expect(store.catchUpSearchIndex()).toBe(0);
    // Ending a session is the other moment the indexes catch up.
    store.appendNode(s1, { kind: "note", text: "shearwater" });
    expect(store.searchIndexBacklog()).toBe(1);
    store.endSession(s1, "done");
    expect(store.searchIndexBacklog()).toBe(0);
    expect(count("nodes_fts", "shearwater")).toBe(1);
  });

  it("stays exact when a node not yet indexed is changed, or the newest node is deleted", () => {
    store.catchUpSearchIndex();
    const a = store.appendNode(s1, { kind: "note", text: "albatross" });
    // Changed before it was indexed: the catch-up indexes the current text only.
    store.db.prepare("UPDATE nodes SET search_text = 'puffin' WHERE id = ?").run(a.id);
    expect(found("albatross")).toEqual([]);
    expect(found("puffin")).toEqual([a.id]);
    // Deleting the newest indexed node lets SQLite reuse its seq; the reused seq gets indexed.
    store.db.prepare("UPDATE sessions SET active_leaf_id = NULL WHERE active_leaf_id = ?").run(a.id);
    store.db.prepare("DELETE FROM nodes WHERE id = ?").run(a.id);
    expect(found("puffin")).toEqual([]);
    const b = store.appendNode(s1, { kind: "note", text: "guillemot", parentId: null });
    expect(b.seq).toBe(a.seq);
    expect(found("guillemot")).toEqual([b.id]);
    for (const t of ["nodes_fts", "nodes_fts_trigram"]) {
      expect(() => store.db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run()).not.toThrow();
    }
  });
});

import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CURRENT_QUESTION_SCRIPT_ID,
  PAGE_LANGUAGE_SCRIPT_ID,
  PAGE_MEMORY_OWNER_SCRIPT_ID,
  PAGE_MEMORY_SCRIPT_ID,
  SESSION_USER_SCRIPT_ID,
  SHARED_WITH_ME_SCRIPT_ID,
} from "../shared/constants";
import type { Memory, User } from "../shared/schemas";
import { AppShell } from "./app-shell";
import { makeTempDir } from "./test/harness";

const TEMPLATE =
  "<!doctype html><html><head><title>t</title></head><body><div id=root></div></body></html>";

/** The JSON inside the session data block, parsed as the browser would. */
function embedded(html: string, id = SESSION_USER_SCRIPT_ID): unknown {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, "s"),
  );
  if (!match?.[1]) throw new Error(`no session block in ${html}`);
  return JSON.parse(match[1]);
}

describe("AppShell", () => {
  let dir: string;
  let shell: AppShell;
  beforeAll(async () => {
    dir = await makeTempDir("vmj-shell-");
    await writeFile(path.join(dir, "index.html"), TEMPLATE);
    shell = new AppShell(path.join(dir, "index.html"));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("names a page's own language in a block, its lang and its direction; none otherwise", async () => {
    const html = await shell.render(null, { language: "ar" });
    expect(embedded(html, PAGE_LANGUAGE_SCRIPT_ID)).toBe("ar");
    expect(html).toMatch(/^<!doctype html><html lang="ar" dir="rtl"><head>/);
    expect(await shell.render(undefined, { language: "es" })).toContain(
      '<html lang="es" dir="ltr">',
    );
    const plain = await shell.render(null);
    expect(plain).not.toContain(PAGE_LANGUAGE_SCRIPT_ID);
    expect(plain).toContain("<html><head>");
  });

  it("embeds null for a visitor, in the head", async () => {
    const html = await shell.render(null);
    expect(embedded(html)).toBeNull();
    expect(html.indexOf(SESSION_USER_SCRIPT_ID)).toBeLessThan(html.indexOf("</head>"));
  });

  it("tells a logged-out browser whose memories its share links open, and a user nothing of it", async () => {
    const sharedWithMe = { owners: [{ username: "rose", displayName: "Grandma Rose" }] };
    const html = await shell.render(null, { sharedWithMe });
    expect(embedded(html, SHARED_WITH_ME_SCRIPT_ID)).toEqual(sharedWithMe);
    expect(
      embedded(
        await shell.render(null, { sharedWithMe: { owners: [] } }),
        SHARED_WITH_ME_SCRIPT_ID,
      ),
    ).toEqual({ owners: [] });
    const user = {
      id: "u1",
      username: "jo",
      displayName: null,
      isPublic: false,
      email: "jo@example.com",
    } as User;
    expect(await shell.render(user, { sharedWithMe })).not.toContain(SHARED_WITH_ME_SCRIPT_ID);
    expect(await shell.render(undefined, { sharedWithMe })).not.toContain(SHARED_WITH_ME_SCRIPT_ID);
  });

  it("embeds only the user's public fields, and no text can close the element", async () => {
    const hostile = "</script><script>alert(1)</script><!--";
    const user = {
      id: "u1",
      username: "jo",
      displayName: hostile,
      isPublic: true,
      email: "jo@example.com",
      passwordHash: "$argon2id$secret",
    } as User;
    const html = await shell.render(user);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("argon2");
    expect(embedded(html)).toEqual({
      id: "u1",
      username: "jo",
      displayName: hostile,
      isPublic: true,
      email: "jo@example.com",
    });
  });

  it("embeds the logged-in user's question the same safe way, and never a visitor's", async () => {
    const user = { id: "u1", username: "jo", displayName: null, isPublic: true, email: null };
    const question = { position: 3, question: "</script><script>alert(1)</script><!-- $& $'" };
    const html = await shell.render(user, {
      question: { ...question, extra: "x" } as typeof question,
    });
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<script>alert");
    expect(embedded(html, CURRENT_QUESTION_SCRIPT_ID)).toEqual(question);
    expect(html.indexOf(CURRENT_QUESTION_SCRIPT_ID)).toBeLessThan(html.indexOf("</head>"));
    expect(await shell.render(null, { question })).not.toContain(CURRENT_QUESTION_SCRIPT_ID);
    expect(await shell.render(user)).not.toContain(CURRENT_QUESTION_SCRIPT_ID);
  });

  it("embeds a memory for anyone it is given for, only the API's fields, and no text can close the element", async () => {
    const hostile = "</script><script>alert(1)</script><!-- \u2028 \u2029 $& $'";
    const memory: Memory = {
      id: "m1",
      user_id: "u1",
      title: hostile,
      audioUrl: "/api/audio/a1",
      transcript: "</SCRIPT ><img src=x onerror=alert(2)>",
      summary: "",
      scores: {
        cuteness: 1,
        excitement: 2,
        interest: 3,
        meaningfulness: 4,
        overall: 5,
        uniqueness: 6,
      },
      duration: 3,
      recordedAt: "2026-06-01T00:00:00.000Z",
      tags: ["beach"],
      status: "saved",
      stage: null,
      error: null,
      createdAt: "2026-06-01T00:00:00.000Z",
      question: null,
      language: null,
      photos: [],
      journalId: "j1",
      storyteller: { id: "s1", name: "Grandma" },
    };
    // A row's private columns handed in by mistake are not sent: the route's schema shapes it.
    const row = { ...memory, anon_owner_hash: "secret-visitor-hash", claim_expires_at: "x" };
    const html = await shell.render(null, { memory: row });
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("secret-visitor-hash");
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(embedded(html, PAGE_MEMORY_SCRIPT_ID)).toEqual(memory);
    expect(html.indexOf(PAGE_MEMORY_SCRIPT_ID)).toBeLessThan(html.indexOf("</head>"));
    // The browser's own JSON.parse reads the same text back (U+2028 included).
    expect((embedded(html, PAGE_MEMORY_SCRIPT_ID) as Memory).title).toContain("\u2028");
    expect(await shell.render(null)).not.toContain(PAGE_MEMORY_SCRIPT_ID);

    // Whose it is rides beside it, escaped the same way; never without the memory.
    const owner = { owner: { username: "rose", displayName: "</script><img src=x>\u2028" } };
    const withOwner = await shell.render(null, { memory, owner });
    expect(withOwner.match(/<\/script>/gi)).toHaveLength(3);
    expect(withOwner).not.toContain("<img");
    expect(embedded(withOwner, PAGE_MEMORY_OWNER_SCRIPT_ID)).toEqual(owner);
    expect(await shell.render(null, { owner })).not.toContain(PAGE_MEMORY_OWNER_SCRIPT_ID);
  });

  it.each(["$'", "$`", "$&", "a$$b", "$1 and $<name>"])(
    "embeds a display name holding %s exactly, and leaves the page whole",
    async (displayName) => {
      const user = { id: "u1", username: "jo", displayName, isPublic: true, email: null } as User;
      const html = await shell.render(user);
      expect(embedded(html)).toEqual(user);
      const block = html.match(/<script type="application\/json"[^>]*>.*?<\/script>/)?.[0] ?? "";
      expect(html).toBe(TEMPLATE.replace("</head>", () => `${block}</head>`));
    },
  );

  it("fails clearly, and recovers, when the built page is missing", async () => {
    const missing = new AppShell(path.join(dir, "later.html"));
    await expect(missing.render(null)).rejects.toThrow(/ENOENT/);
    await writeFile(path.join(dir, "later.html"), TEMPLATE);
    expect(embedded(await missing.render(null))).toBeNull();
  });
});

import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_MEMORY_OWNER_SCRIPT_ID, PAGE_MEMORY_SCRIPT_ID } from "../../shared/constants";
import type { CreatedShareLink } from "../../shared/share-links";
import { VISITOR_COOKIE } from "../auth/session.service";
import { hashToken, newSecretToken } from "../ids";
import { SHARE_COOKIE } from "../share-links/share-cookie";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, makeTempDir, type TestApp } from "../test/harness";
import { MemoriesRepo } from "./memories.repo";

const TEMPLATE = "<!doctype html><html><head></head><body><div id=root></div></body></html>";

/** A data block of a page's HTML, parsed as the browser would; undefined when it has none. */
function dataBlock(html: string, id: string): unknown {
  const block = html.match(
    new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, "s"),
  )?.[1];
  return block === undefined ? undefined : JSON.parse(block);
}

/** The memory a page's HTML carries. */
const pageMemory = (html: string) => dataBlock(html, PAGE_MEMORY_SCRIPT_ID);

/**
 * A memory's page carries the memory exactly when GET /api/memories/{id} would answer it to the
 * same browser (ADR 0031), and answers 404 when it would not.
 */
describe.each(DATABASE_KINDS)("a memory's page (%s)", (kind) => {
  let t: TestApp;
  let clientDir: string;
  let repo: MemoriesRepo;
  let publicOwner: TestUser;
  let privateOwner: TestUser;
  let stranger: TestUser;
  let publicSaved: string;
  let publicProcessing: string;
  let privateSaved: string;

  beforeAll(async () => {
    clientDir = await makeTempDir("vmj-client-");
    await mkdir(path.join(clientDir, "assets"));
    await writeFile(path.join(clientDir, "index.html"), TEMPLATE);
    t = await createTestApp({
      kind,
      env: { RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "1000" },
      deps: { clientDir },
    });
    repo = new MemoriesRepo(t.database.db, t.database.kind);
    publicOwner = await createUserWithSession(t, { isPublic: true });
    privateOwner = await createUserWithSession(t, { isPublic: false });
    stranger = await createUserWithSession(t, { isPublic: true });
    publicSaved = (
      await repo.insert({
        userId: publicOwner.user.id,
        audioId: null,
        status: "saved",
        title: "</script><script>alert(1)</script>\u2028 at the beach",
        transcript: "We built a sandcastle.",
        tags: ["beach"],
      })
    ).id;
    publicProcessing = (
      await repo.insert({ userId: publicOwner.user.id, audioId: null, status: "processing" })
    ).id;
    privateSaved = (
      await repo.insert({
        userId: privateOwner.user.id,
        audioId: null,
        status: "saved",
        title: "Only for the family",
      })
    ).id;
  });
  afterAll(async () => {
    await t.cleanup();
    await rm(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

  /** The page and the API for one memory as one browser: what each answered. */
  async function pageAndApi(id: string, cookie?: string) {
    const [page, api, ownerApi] = await Promise.all([
      get(`/memory/${id}`, cookie),
      get(`/api/memories/${id}`, cookie),
      get(`/api/memories/${id}/owner`, cookie),
    ]);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    // It holds what this browser may see: never kept by a shared cache.
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    expect(page.body).toContain("<div id=root>");
    return {
      status: page.statusCode,
      memory: pageMemory(page.body),
      owner: dataBlock(page.body, PAGE_MEMORY_OWNER_SCRIPT_ID),
      api,
      ownerApi,
    };
  }

  /** The page carries what the API answers this browser, byte for byte once parsed. */
  async function expectEmbedded(id: string, cookie?: string) {
    const { status, memory, owner, api, ownerApi } = await pageAndApi(id, cookie);
    expect(api.statusCode).toBe(200);
    expect(status).toBe(200);
    expect(memory).toEqual(api.json());
    // And whose it is, as its /owner route answers.
    expect(ownerApi.statusCode).toBe(200);
    expect(owner).toEqual(ownerApi.json());
  }

  /** The page carries nothing and answers 404, as the API does. */
  async function expectHidden(id: string, cookie?: string) {
    const { status, memory, owner, api, ownerApi } = await pageAndApi(id, cookie);
    expect(api.statusCode).toBe(404);
    expect(status).toBe(404);
    expect(memory).toBeUndefined();
    expect(ownerApi.statusCode).toBe(404);
    expect(owner).toBeUndefined();
  }

  it("carries the owner's memory to the owner, in any state and on a private profile", async () => {
    await expectEmbedded(publicSaved, publicOwner.cookie);
    await expectEmbedded(publicProcessing, publicOwner.cookie);
    await expectEmbedded(privateSaved, privateOwner.cookie);
  });

  it("carries a public profile's saved memory to a visitor and to another user, escaped", async () => {
    await expectEmbedded(publicSaved);
    await expectEmbedded(publicSaved, stranger.cookie);
    const page = await get(`/memory/${publicSaved}`);
    expect(page.body).not.toContain("<script>alert");
    expect(page.body).not.toContain("\u2028");
    expect((pageMemory(page.body) as { title: string }).title).toBe(
      "</script><script>alert(1)</script>\u2028 at the beach",
    );
  });

  it("carries nothing, and answers 404, where the API would", async () => {
    // A private profile's memory, to a visitor and to another user.
    await expectHidden(privateSaved);
    await expectHidden(privateSaved, stranger.cookie);
    // A public profile's memory still processing, to anyone but its owner.
    await expectHidden(publicProcessing);
    await expectHidden(publicProcessing, stranger.cookie);
    // No such memory; an id the API refuses is none either.
    await expectHidden("no-such-memory", publicOwner.cookie);
    const tooLong = await get(`/memory/${"x".repeat(101)}`, publicOwner.cookie);
    expect(tooLong.statusCode).toBe(404);
    expect(pageMemory(tooLong.body)).toBeUndefined();
  });

  it("carries a private profile's memory to a browser holding its live share link, until it is revoked", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/share-links",
      headers: { cookie: privateOwner.cookie },
      payload: { label: "Grandma" },
    });
    expect(created.statusCode).toBe(201);
    const link = created.json<CreatedShareLink>();
    const opened = await get(new URL(link.url).pathname);
    expect(opened.statusCode).toBe(303);
    const share = opened.cookies.find((c) => c.name === SHARE_COOKIE);
    const cookie = `${SHARE_COOKIE}=${share?.value}`;

    await expectEmbedded(privateSaved, cookie);
    // A link unlocks a profile as if public: its unsaved memories stay hidden.
    await expectHidden(
      (await repo.insert({ userId: privateOwner.user.id, audioId: null, status: "processing" })).id,
      cookie,
    );
    // A well-formed token of no link unlocks nothing.
    await expectHidden(privateSaved, `${SHARE_COOKIE}=${newSecretToken()}`);

    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/api/share-links/${link.id}`,
      headers: { cookie: privateOwner.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    await expectHidden(privateSaved, cookie);
  });

  it("carries a recording made without an account to the browser that made it only", async () => {
    const visitor = newSecretToken();
    const unclaimed = await repo.insert({
      userId: null,
      anonOwnerHash: hashToken(visitor),
      claimExpiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
      audioId: null,
      status: "processing",
      title: "Recorded before signing up",
    });
    await expectEmbedded(unclaimed.id, `${VISITOR_COOKIE}=${visitor}`);
    // Still this browser's once it logs in (the visitor cookie is kept).
    await expectEmbedded(unclaimed.id, `${VISITOR_COOKIE}=${visitor}; ${stranger.cookie}`);
    await expectHidden(unclaimed.id, `${VISITOR_COOKIE}=${newSecretToken()}`);
    await expectHidden(unclaimed.id, stranger.cookie);
    await expectHidden(unclaimed.id);
  });

  it("links a memory by the address the client router reads", async () => {
    // The router matches case-insensitively, with or without a trailing slash.
    const page = await get(`/MEMORY/${publicSaved}/`);
    expect(page.statusCode).toBe(200);
    expect((pageMemory(page.body) as { id: string }).id).toBe(publicSaved);
  });
});

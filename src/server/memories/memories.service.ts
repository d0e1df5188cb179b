import { PAGE_SIZE } from "../../shared/constants";
import { normalizeTags } from "../../shared/rules";
import type { Memory, MemoryPage, MemoryUpdateBody } from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import { badRequest, forbidden, notFound, unauthorized } from "../http-errors";
import type { AudioStorage } from "../storage/audio-storage";
import type { UsersService } from "../users/users.service";
import {
  type MemoriesRepo,
  type MemoryRow,
  type RowPage,
  searchTokens,
  toMemoryDto,
} from "./memories.repo";

/** Thrown to callers as 403: the memory is visible but belongs to someone else. */
const NOT_OWNER = "Only the owner can change this memory";

/**
 * Who may see and change memories (PRODUCT.md): the owner sees all their memories in any state;
 * others see a memory only when its owner's profile is public and it is saved; an anonymous
 * recording only by the browser that made it. Anything not visible answers 404 like missing.
 */
export class MemoriesService {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly users: UsersService,
    private readonly storage: AudioStorage,
  ) {}

  /** True when `identity` may see this memory row. */
  async canView(row: MemoryRow, identity: Identity): Promise<boolean> {
    if (row.user_id === null) {
      return row.anon_owner_hash !== null && row.anon_owner_hash === identity.visitorHash;
    }
    if (row.user_id === identity.userId) return true;
    if (row.status !== "saved") return false;
    return this.isProfileVisible(row.user_id, identity.userId);
  }

  /** The memory row when `identity` may see it, else a 404 exactly like a missing one. */
  async getVisibleRow(id: string, identity: Identity): Promise<MemoryRow> {
    const row = await this.repo.findById(id);
    if (!row || !(await this.canView(row, identity))) throw notFound();
    return row;
  }

  async getVisible(id: string, identity: Identity): Promise<Memory> {
    return toMemoryDto(await this.getVisibleRow(id, identity));
  }

  /** The row when `identity` owns it: 401 logged out, 404 not visible, 403 visible to a non-owner. */
  async getOwnedRow(id: string, identity: Identity): Promise<MemoryRow> {
    if (!identity.userId) throw unauthorized();
    const row = await this.getVisibleRow(id, identity);
    if (row.user_id !== identity.userId) throw forbidden(NOT_OWNER);
    return row;
  }

  async listOwn(identity: Identity, page: number): Promise<MemoryPage> {
    const userId = requireUser(identity);
    return toPage(await this.repo.list({ userId, savedOnly: false }, page), page);
  }

  async searchOwn(identity: Identity, query: string, page: number): Promise<MemoryPage> {
    const userId = requireUser(identity);
    return this.searchScope({ userId, savedOnly: false }, query, page);
  }

  /** A profile's shared (saved) memories; 404 for a missing profile or a private one. */
  async listForProfile(username: string, identity: Identity, page: number): Promise<MemoryPage> {
    const owner = await this.visibleProfileOwner(username, identity.userId);
    return toPage(await this.repo.list({ userId: owner.id, savedOnly: true }, page), page);
  }

  async searchForProfile(
    username: string,
    identity: Identity,
    query: string,
    page: number,
  ): Promise<MemoryPage> {
    const owner = await this.visibleProfileOwner(username, identity.userId);
    return this.searchScope({ userId: owner.id, savedOnly: true }, query, page);
  }

  /** PUT: the owner replaces the editable fields; id, owner and audio are never taken from input. */
  async update(id: string, identity: Identity, body: MemoryUpdateBody): Promise<Memory> {
    await this.getOwnedRow(id, identity);
    const tags = normalizeTags(body.tags);
    if (!tags) throw badRequest("tags: You can only have up to 5 tags per memory.");
    const updated = await this.repo.update(id, {
      title: body.title.trim(),
      transcript: body.transcript,
      summary: body.summary,
      recordedAt: new Date(body.recordedAt).toISOString(),
      tags,
    });
    if (!updated) throw notFound();
    return toMemoryDto(updated);
  }

  /** Deletes the memory, its comments and all their audio (rows first, then the files). */
  async delete(id: string, identity: Identity): Promise<void> {
    await this.getOwnedRow(id, identity);
    const { deleted, storageKeys } = await this.repo.deleteWithComments(id);
    if (!deleted) throw notFound();
    for (const key of storageKeys) {
      // The rows are gone; a file that fails to delete is an orphan, never a broken memory.
      await this.storage.delete(key).catch(() => undefined);
    }
  }

  private async searchScope(
    scope: { userId: string; savedOnly: boolean },
    query: string,
    page: number,
  ): Promise<MemoryPage> {
    if (query.trim() === "") return toPage(await this.repo.list(scope, page), page);
    return toPage(await this.repo.search(scope, searchTokens(query), page), page);
  }

  // Who may see a profile is the users feature's rule.
  private async isProfileVisible(ownerId: string, viewerId: string | null): Promise<boolean> {
    return this.users.isVisibleTo(ownerId, viewerId);
  }

  private async visibleProfileOwner(username: string, viewerId: string | null) {
    const owner = await this.users.getVisibleProfile(username, viewerId);
    if (!owner) throw notFound();
    return owner;
  }
}

function requireUser(identity: Identity): string {
  if (!identity.userId) throw unauthorized();
  return identity.userId;
}

function toPage(result: RowPage, page: number): MemoryPage {
  return { items: result.rows.map(toMemoryDto), total: result.total, page, pageSize: PAGE_SIZE };
}

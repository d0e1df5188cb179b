import { PAGE_SIZE } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { normalizeTags } from "../../shared/rules";
import type { Memory, MemoryPage, MemoryUpdateBody, UnclaimedMemories } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { Identity, Viewer } from "../auth/session.service";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../http-errors";
import type { UsersService } from "../users/users.service";
import {
  type MemoriesRepo,
  type MemoryRow,
  type RowPage,
  searchTokens,
  toMemoryDto,
} from "./memories.repo";
import { memoryVisibleTo } from "./memory-visibility";

/** What other features keep per memory and delete with it (the comments feature implements it). */
export interface MemoryDependents {
  /** Deletes whatever belongs to the memory inside `trx`; returns the audio ids it used. */
  deleteForMemory(memoryId: string, trx: Executor): Promise<string[]>;
  /** The same for many memories at once (an account being deleted). */
  deleteForMemories(memoryIds: readonly string[], trx: Executor): Promise<string[]>;
}

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
    private readonly audio: AudioService,
    private readonly dependents: MemoryDependents,
    private readonly transactions: Transactions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Walks the deep-page anchors of journals no instance has walked, or changed past the change
   * log since (ADR 0027); housekeeping runs it at start and on its interval. Returns how many
   * scopes and directions it walked.
   */
  prepareUnwalkedJournals(): Promise<number> {
    return this.repo.prepareUnwalkedJournals();
  }

  /** True when `identity` may see this memory row. */
  canView(row: MemoryRow, identity: Identity): Promise<boolean> {
    return memoryVisibleTo(row, identity, (ownerId, viewer) =>
      this.users.isVisibleTo(ownerId, viewer),
    );
  }

  /** True when the memory exists and `identity` may see it (and so its comments and audio). */
  async isVisible(id: string, identity: Identity): Promise<boolean> {
    return (await this.findVisibleRow(id, identity)) !== undefined;
  }

  /** The memory row when `identity` may see it, else a 404 exactly like a missing one. */
  async getVisibleRow(id: string, identity: Identity): Promise<MemoryRow> {
    const row = await this.findVisibleRow(id, identity);
    if (!row) throw notFound();
    return row;
  }

  /** GET /api/memories/{id}. */
  async getVisible(id: string, identity: Identity): Promise<Memory> {
    return toMemoryDto(await this.getVisibleRow(id, identity));
  }

  /**
   * The memory when `identity` may see it, else undefined: what GET /api/memories/{id} answers,
   * for a memory's page to carry in its HTML (ADR 0031), decided by the same lookup.
   */
  async findVisible(id: string, identity: Identity): Promise<Memory | undefined> {
    const row = await this.findVisibleRow(id, identity);
    return row && toMemoryDto(row);
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

  /**
   * What this browser recorded without an account and can still claim (any state), newest first.
   * Keyed by the visitor cookie alone, so it also answers once the same browser has logged in.
   */
  async listUnclaimed(identity: Identity): Promise<UnclaimedMemories> {
    if (!identity.visitorHash) return { items: [] };
    const rows = await this.repo.listUnclaimed(identity.visitorHash, this.now());
    return {
      items: rows.map((row) => ({
        ...toMemoryDto(row),
        claimExpiresAt: row.claim_expires_at ?? "",
      })),
    };
  }

  async searchOwn(identity: Identity, query: string, page: number): Promise<MemoryPage> {
    const userId = requireUser(identity);
    return this.searchScope({ userId, savedOnly: false }, query, page);
  }

  /** A profile's shared (saved) memories; 404 for a missing profile or a private one. */
  async listForProfile(username: string, identity: Identity, page: number): Promise<MemoryPage> {
    const owner = await this.visibleProfileOwner(username, identity);
    return toPage(await this.repo.list({ userId: owner.id, savedOnly: true }, page), page);
  }

  async searchForProfile(
    username: string,
    identity: Identity,
    query: string,
    page: number,
  ): Promise<MemoryPage> {
    const owner = await this.visibleProfileOwner(username, identity);
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
    if (updated === "processing") throw conflict(MESSAGES.editWhileProcessing);
    return toMemoryDto(updated);
  }

  /**
   * Deletes the memory, its comments and all their audio in one transaction (rows only), then the
   * files: a crash in between leaves orphan files at worst, never a memory without its audio. Of
   * concurrent deletes one wins; the others answer 404.
   */
  async delete(id: string, identity: Identity): Promise<void> {
    const checked = await this.getDeletableRow(id, identity);
    const storageKeys = await this.transactions.run(async (trx) => {
      const memory = await this.repo.findForDelete(id, trx);
      // Gone, or claimed by an account between the check and the lock: not this caller's any more.
      if (!memory || memory.user_id !== checked.user_id) throw notFound();
      const commentAudio = await this.dependents.deleteForMemory(id, trx);
      if (!(await this.repo.delete(id, trx))) throw notFound();
      const audioIds = [memory.audio_id, ...commentAudio].filter((a): a is string => a !== null);
      return this.audio.deleteRows(audioIds, trx);
    });
    await this.audio.removeFiles(storageKeys);
  }

  /**
   * Part of deleting an account, inside the caller's transaction: every memory of the user and
   * everything that belongs to them (comments). Returns the audio ids they used, for the audio
   * feature to delete (rows in the transaction, files after it).
   */
  async deleteAllOfUser(userId: string, trx: Executor): Promise<string[]> {
    const rows = await this.repo.lockAllOfUser(userId, trx);
    const commentAudio = await this.dependents.deleteForMemories(
      rows.map((row) => row.id),
      trx,
    );
    await this.repo.deleteAllOfUser(userId, trx);
    const memoryAudio = rows.map((row) => row.audio_id).filter((a): a is string => a !== null);
    return [...memoryAudio, ...commentAudio];
  }

  /**
   * The owner may delete their memory; a browser may also discard what it recorded without an
   * account (until it is claimed). Otherwise as getOwnedRow: 401 logged out, 404, 403.
   */
  private async getDeletableRow(id: string, identity: Identity): Promise<MemoryRow> {
    if (identity.visitorHash) {
      const row = await this.repo.findById(id);
      if (row && row.user_id === null && row.anon_owner_hash === identity.visitorHash) return row;
    }
    return this.getOwnedRow(id, identity);
  }

  private async findVisibleRow(id: string, identity: Identity): Promise<MemoryRow | undefined> {
    const row = await this.repo.findById(id);
    return row && (await this.canView(row, identity)) ? row : undefined;
  }

  private async searchScope(
    scope: { userId: string; savedOnly: boolean },
    query: string,
    page: number,
  ): Promise<MemoryPage> {
    if (query.trim() === "") return toPage(await this.repo.list(scope, page), page);
    return toPage(await this.repo.search(scope, searchTokens(query), page), page);
  }

  private async visibleProfileOwner(username: string, viewer: Viewer) {
    const owner = await this.users.getVisibleProfile(username, viewer);
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

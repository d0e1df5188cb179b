import { can } from "../../shared/authorization";
import { PAGE_SIZE } from "../../shared/constants";
import { normalizeTags } from "../../shared/rules";
import type {
  Memory,
  MemoryOwner,
  MemoryPage,
  MemoryUpdateBody,
  MemoryYears,
  Photo,
  UnclaimedMemories,
} from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { Identity, Viewer } from "../auth/session.service";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../http-errors";
import { ownJournalId } from "../journals/journals.repo";
import type { UsersService } from "../users/users.service";
import type { MemoriesRepo, MemoryRow, MemoryScope, RowPage } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";
import { searchTokens } from "./memory-search";

/** What other features keep per memory and delete with it (the comments feature implements it). */
export interface MemoryDependents {
  /** Deletes whatever belongs to these memories inside `trx`; returns the audio ids it used. */
  deleteForMemories(memoryIds: readonly string[], trx: Executor): Promise<string[]>;
}

/** A memory's photos, kept by the photos feature: shown in its JSON, deleted with it. */
export interface MemoryPhotos {
  /** The photos of these memories, each memory's cover first. */
  forMemories(memoryIds: readonly string[]): Promise<Map<string, Photo[]>>;
  /** Deletes their photo rows inside `trx`; returns the storage keys for `removeFiles`. */
  deleteForMemories(memoryIds: readonly string[], trx: Executor): Promise<string[]>;
  /** Removes the files of deleted photos (after the commit). */
  removeFiles(keys: readonly string[]): Promise<void>;
}

/** What memories read of their journals: whether one is public, and storytellers' names. */
export interface MemoryJournals {
  isPublic(journalId: string): Promise<boolean>;
  storytellerNames(memberIds: readonly string[]): Promise<Map<string, string>>;
}

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
    private readonly photos: MemoryPhotos,
    private readonly journals: MemoryJournals,
    private readonly transactions: Transactions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * True when `identity` may see this memory row. The rule is asked without the journal's facts
   * first (its members and the recording browser need none), so whether the journal is public is
   * read only when the answer may depend on it: not on each of a member's audio range requests.
   */
  async canView(row: MemoryRow, identity: Identity): Promise<boolean> {
    if (can(identity, "memory.view", { memory: row, journal: undefined })) return true;
    if (row.journal_id === null || row.status !== "saved") return false;
    const journal = { id: row.journal_id, isPublic: await this.journals.isPublic(row.journal_id) };
    return can(identity, "memory.view", { memory: row, journal });
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

  /** A memory row's JSON, with its photos and storyteller. */
  async toDto(row: MemoryRow): Promise<Memory> {
    return (await this.toDtos([row]))[0] as Memory;
  }

  /** Many memory rows' JSON (a page of a list), their photos and storytellers read in one query each. */
  async toDtos(rows: readonly MemoryRow[]): Promise<Memory[]> {
    const storytellers = rows.flatMap((row) => (row.storyteller_id ? [row.storyteller_id] : []));
    const [photos, names] = await Promise.all([
      this.photos.forMemories(rows.map((row) => row.id)),
      this.journals.storytellerNames(storytellers),
    ]);
    return rows.map((row) =>
      toMemoryDto(row, photos.get(row.id), names.get(row.storyteller_id ?? "")),
    );
  }

  /** GET /api/memories/{id}. */
  async getVisible(id: string, identity: Identity): Promise<Memory> {
    return this.toDto(await this.getVisibleRow(id, identity));
  }

  /** GET /api/memories/{id}/owner: whose it is, for whoever may see it (404 otherwise). */
  async ownerOf(id: string, identity: Identity): Promise<MemoryOwner> {
    return this.ownerOfRow(await this.getVisibleRow(id, identity));
  }

  private async ownerOfRow(row: MemoryRow): Promise<MemoryOwner> {
    const owner = row.user_id ? await this.users.getUser(row.user_id) : null;
    return { owner: owner && { username: owner.username, displayName: owner.displayName } };
  }

  /**
   * The memory and its owner when `identity` may see it, else undefined: what GET
   * /api/memories/{id} and its /owner answer, for a memory's page to carry in its HTML (ADR 0031),
   * decided by the same lookup.
   */
  async findVisible(
    id: string,
    identity: Identity,
  ): Promise<{ memory: Memory; owner: MemoryOwner } | undefined> {
    const row = await this.findVisibleRow(id, identity);
    if (!row) return undefined;
    const [memory, owner] = await Promise.all([this.toDto(row), this.ownerOfRow(row)]);
    return { memory, owner };
  }

  /** The row when `identity` owns it: 401 logged out, 404 not visible, 403 visible to a non-owner. */
  async getOwnedRow(id: string, identity: Identity): Promise<MemoryRow> {
    if (!identity.userId) throw unauthorized();
    const row = await this.getVisibleRow(id, identity);
    if (!can(identity, "memory.edit", row)) throw forbidden("memory.not_owner");
    return row;
  }

  /**
   * Whether `identity` may add a photo to the memory (`memory.addPhoto`): 401 logged out (a
   * recording link speaks for its member), 404 not visible, 403 visible but not theirs.
   */
  async assertMayAddPhoto(id: string, identity: Identity): Promise<void> {
    if (!identity.userId && !identity.recordingFor) throw unauthorized();
    const row = await this.getVisibleRow(id, identity);
    if (!can(identity, "memory.addPhoto", row)) throw forbidden("memory.not_owner");
  }

  /** GET /api/memories: the memories of the caller's own journal, in every state. */
  async listOwn(identity: Identity, page: number): Promise<MemoryPage> {
    const journalId = ownJournalId(requireUser(identity));
    return this.toPage(await this.repo.list({ journalId, savedOnly: false }, page), page);
  }

  /** The years of the caller's own journal (all states), for the year navigator. */
  async yearsOwn(identity: Identity): Promise<MemoryYears> {
    const journalId = ownJournalId(requireUser(identity));
    return { years: await this.repo.years({ journalId, savedOnly: false }) };
  }

  /**
   * A journal's memories in every state (one storyteller's with `storyteller`), or those matching
   * `q`: for its members, whom the route has checked.
   */
  async listJournal(
    journalId: string,
    query: { page: number; q: string; storyteller?: string | undefined },
  ): Promise<MemoryPage> {
    const scope = { journalId, savedOnly: false, storytellerId: query.storyteller };
    return this.searchScope(scope, query.q, query.page);
  }

  /** One storyteller's saved stories in a journal, newest first: their recording link's page. */
  async listToldBy(journalId: string, storytellerId: string, page: number): Promise<MemoryPage> {
    const scope = { journalId, savedOnly: true, storytellerId };
    return this.toPage(await this.repo.list(scope, page), page);
  }

  /** The years of a journal's memories (or one storyteller's), for its members. */
  async yearsOfJournal(journalId: string, storyteller?: string): Promise<MemoryYears> {
    return {
      years: await this.repo.years({ journalId, savedOnly: false, storytellerId: storyteller }),
    };
  }

  /** The years of a profile's shared (saved) memories; 404 as its list. */
  async yearsForProfile(username: string, identity: Identity): Promise<MemoryYears> {
    const journalId = await this.visibleProfileJournal(username, identity);
    return { years: await this.repo.years({ journalId, savedOnly: true }) };
  }

  /**
   * What this browser recorded without an account and can still claim (any state), newest first.
   * Keyed by the visitor cookie alone, so it also answers once the same browser has logged in.
   */
  async listUnclaimed(identity: Identity): Promise<UnclaimedMemories> {
    if (!identity.visitorHash) return { items: [] };
    const rows = await this.repo.listUnclaimed(identity.visitorHash, this.now());
    const memories = await this.toDtos(rows);
    return {
      items: rows.map((row, i) => ({
        ...(memories[i] as Memory),
        claimExpiresAt: row.claim_expires_at ?? "",
      })),
    };
  }

  async searchOwn(identity: Identity, query: string, page: number): Promise<MemoryPage> {
    const journalId = ownJournalId(requireUser(identity));
    return this.searchScope({ journalId, savedOnly: false }, query, page);
  }

  /**
   * A profile's shared (saved) memories: those of the journal its account made, whoever told them;
   * 404 for a missing profile or a private one.
   */
  async listForProfile(username: string, identity: Identity, page: number): Promise<MemoryPage> {
    const journalId = await this.visibleProfileJournal(username, identity);
    return this.toPage(await this.repo.list({ journalId, savedOnly: true }, page), page);
  }

  async searchForProfile(
    username: string,
    identity: Identity,
    query: string,
    page: number,
  ): Promise<MemoryPage> {
    const journalId = await this.visibleProfileJournal(username, identity);
    return this.searchScope({ journalId, savedOnly: true }, query, page);
  }

  /** PUT: the owner replaces the editable fields; id, owner and audio are never taken from input. */
  async update(id: string, identity: Identity, body: MemoryUpdateBody): Promise<Memory> {
    await this.getOwnedRow(id, identity);
    const tags = normalizeTags(body.tags);
    if (!tags) throw badRequest("memory.too_many_tags", undefined, "body.tags");
    const updated = await this.repo.update(id, {
      title: body.title.trim(),
      transcript: body.transcript,
      summary: body.summary,
      recordedAt: new Date(body.recordedAt).toISOString(),
      tags,
      ...(body.question === null ? { removeQuestion: true } : {}),
    });
    if (!updated) throw notFound();
    if (updated === "processing") throw conflict("memory.being_processed");
    return this.toDto(updated);
  }

  /**
   * Deletes the memory, its comments, photos and all their audio in one transaction (rows only),
   * then the files: a crash in between leaves orphan files at worst, never a memory without its
   * audio. Of concurrent deletes one wins; the others answer 404.
   */
  async delete(id: string, identity: Identity): Promise<void> {
    const checked = await this.getDeletableRow(id, identity);
    const { audioKeys, photoKeys } = await this.transactions.run(async (trx) => {
      const memory = await this.repo.findForDelete(id, trx);
      // Gone, or claimed by an account between the check and the lock: not this caller's any more.
      if (!memory || memory.user_id !== checked.user_id) throw notFound();
      const commentAudio = await this.dependents.deleteForMemories([id], trx);
      const photoKeys = await this.photos.deleteForMemories([id], trx);
      if (!(await this.repo.delete(id, trx))) throw notFound();
      const audioIds = [memory.audio_id, ...commentAudio].filter((a): a is string => a !== null);
      return { audioKeys: await this.audio.deleteRows(audioIds, trx), photoKeys };
    });
    await this.audio.removeFiles(audioKeys);
    await this.photos.removeFiles(photoKeys);
  }

  /**
   * Part of deleting an account, inside the caller's transaction: every memory the user told and
   * every memory of `journalIds` (the journals ending with the account), and everything that
   * belongs to them (comments, photos). Returns the audio ids they used, for the
   * audio feature to delete (rows in the transaction, files after it), and the photos' storage
   * keys, for `removePhotoFiles` after the commit.
   */
  async deleteAllOfUser(
    userId: string,
    journalIds: readonly string[],
    trx: Executor,
  ): Promise<{ audioIds: string[]; photoKeys: string[] }> {
    const rows = await this.repo.lockAllOfUser(userId, journalIds, trx);
    const ids = rows.map((row) => row.id);
    const commentAudio = await this.dependents.deleteForMemories(ids, trx);
    const photoKeys = await this.photos.deleteForMemories(ids, trx);
    await this.repo.deleteAllOfUser(userId, journalIds, trx);
    const memoryAudio = rows.map((row) => row.audio_id).filter((a): a is string => a !== null);
    return { audioIds: [...memoryAudio, ...commentAudio], photoKeys };
  }

  /** Removes the files of photos deleted with memories (after the commit). */
  removePhotoFiles(keys: readonly string[]): Promise<void> {
    return this.photos.removeFiles(keys);
  }

  /**
   * The owner may delete their memory; a browser may also discard what it recorded without an
   * account (until it is claimed). Otherwise as getOwnedRow: 401 logged out, 404, 403.
   */
  private async getDeletableRow(id: string, identity: Identity): Promise<MemoryRow> {
    const row = await this.repo.findById(id);
    if (row && can(identity, "memory.delete", row)) return row;
    return this.getOwnedRow(id, identity);
  }

  private async findVisibleRow(id: string, identity: Identity): Promise<MemoryRow | undefined> {
    const row = await this.repo.findById(id);
    return row && (await this.canView(row, identity)) ? row : undefined;
  }

  private async searchScope(scope: MemoryScope, query: string, page: number): Promise<MemoryPage> {
    if (query.trim() === "") return this.toPage(await this.repo.list(scope, page), page);
    return this.toPage(await this.repo.search(scope, searchTokens(query), page), page);
  }

  private async toPage(result: RowPage, page: number): Promise<MemoryPage> {
    const items = await this.toDtos(result.rows);
    return { items, total: result.total, page, pageSize: PAGE_SIZE };
  }

  /** The journal a profile shows (its account's own), when `viewer` may see the profile. */
  private async visibleProfileJournal(username: string, viewer: Viewer): Promise<string> {
    const owner = await this.users.getVisibleProfile(username, viewer);
    if (!owner) throw notFound();
    return ownJournalId(owner.id);
  }
}

function requireUser(identity: Identity): string {
  if (!identity.userId) throw unauthorized();
  return identity.userId;
}

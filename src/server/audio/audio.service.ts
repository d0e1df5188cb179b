import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { can } from "../../shared/authorization";
import { MIN_RECORDING_BYTES } from "../../shared/constants";
import type { Identity } from "../auth/session.service";
import { isForeignKeyViolation } from "../db/constraint-errors";
import type { Executor } from "../db/transactions";
import { badRequest, tooLarge, unauthorized } from "../http-errors";
import { newId, nowIso } from "../ids";
import type { AudioStorage, ByteRange } from "../storage/audio-storage";
import type { FileReference, StoredFileOwner } from "../storage/stored-files";
import { type Attachment, type AudioRepo, type AudioRow, parseAttachment } from "./audio.repo";
import { inspectAudio, SNIFF_BYTES, type SniffedAudio, sniffAudio } from "./audio-sniff";

export type { Attachment, AudioRow } from "./audio.repo";

/** Who may hear an attached upload: decided by what it is attached to (the memory visibility rule). */
export type AttachmentVisibility = (attachment: Attachment, identity: Identity) => Promise<boolean>;

export const AUDIO_URL_PREFIX = "/api/audio/";
const AUDIO_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The URL the browser uses to fetch an audio file (what memories and comments store as audioUrl). */
export function audioUrl(id: string): string {
  return `${AUDIO_URL_PREFIX}${id}`;
}

/** The audio id in a URL made by `audioUrl` (a path, or an absolute URL on any host); else null. */
export function audioIdFromUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url, "http://localhost").pathname;
  } catch {
    return null;
  }
  if (!pathname.startsWith(AUDIO_URL_PREFIX)) return null;
  const id = pathname.slice(AUDIO_URL_PREFIX.length);
  return AUDIO_ID.test(id) ? id : null;
}

/** The browser's id for one recording, sent as the `x-upload-key` header. */
export const UPLOAD_KEY_PATTERN = /^[A-Za-z0-9-]{8,100}$/;

/** A storage key base (40 hex characters) unique to this uploader and upload key. */
function derivedKeyBase(owner: UploadOwner, uploadKey: string): string {
  const who = "userId" in owner ? `user:${owner.userId}` : `anon:${owner.anonHash}`;
  return createHash("sha256").update(`${who}\n${uploadKey}`).digest("hex").slice(0, 40);
}

/** A file stored for a restore, with what its row will be attached to. */
export type ImportedAudio = AudioRow & { attachment: Attachment };

/** Who uploaded: a user, or an anonymous browser's visitor hash. */
export type UploadOwner = { userId: string } | { anonHash: string };

export interface UploadInput {
  source: Readable;
  maxBytes: number;
  owner: UploadOwner;
  /** True when the transport cut the stream at its own size limit (multipart's fileSize). */
  wasTruncated?: () => boolean;
}

/**
 * Checks the upload while it streams: it must be at least MIN_RECORDING_BYTES long and be audio
 * whose container structure can be read (400 otherwise), and it must stay within `maxBytes` (413).
 * Only the head needed to decide is held in memory. Any failure ends the stream with that error, so
 * storage discards the temporary file; stopping early also stops reading the source.
 */
async function checkedAudio(input: UploadInput): Promise<{ kind: SniffedAudio; stream: Readable }> {
  const iterator = input.source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const wasTruncated = input.wasTruncated ?? (() => false);
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  /** Reads until the head holds `bytes` bytes or the upload ends. */
  const readUntil = async (bytes: number) => {
    while (!done && length < bytes) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      chunks.push(next.value);
      length += next.value.length;
    }
  };
  const refuse = async (error: Error): Promise<never> => {
    if (!done) await iterator.return?.();
    throw error;
  };

  await readUntil(Math.max(SNIFF_BYTES, MIN_RECORDING_BYTES));
  let head = Buffer.concat(chunks);
  if (!sniffAudio(head)) return refuse(badRequest("audio.not_audio"));
  if (done && length < MIN_RECORDING_BYTES && !wasTruncated()) {
    return refuse(badRequest("audio.too_short"));
  }
  let inspection = inspectAudio(head, done);
  while (inspection.status === "need") {
    await readUntil(inspection.bytes);
    head = Buffer.concat(chunks);
    inspection = inspectAudio(head, done);
  }
  if (inspection.status === "invalid") {
    // Cut at the size limit: that, not the structure, is what went wrong.
    if (length > input.maxBytes || (done && wasTruncated())) return refuse(tooLarge());
    const name = sniffAudio(head)?.name ?? "audio";
    return refuse(
      badRequest("audio.unreadable", `the ${name} file cannot be read: ${inspection.problem}`),
    );
  }
  const kind = inspection.audio;
  async function* guarded(): AsyncGenerator<Buffer> {
    let finished = done;
    try {
      let bytes = head.length;
      if (bytes > input.maxBytes) throw tooLarge();
      yield head;
      while (!finished) {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        bytes += next.value.length;
        if (bytes > input.maxBytes) throw tooLarge();
        yield next.value;
      }
      if (wasTruncated()) throw tooLarge();
    } finally {
      // Stopped early (too large, or storage failed): stop reading the upload too.
      if (!finished) await iterator.return?.();
    }
  }
  return { kind, stream: Readable.from(guarded(), { objectMode: false }) };
}

/** Rows per page when every audio row is walked (the instance check and backup). */
const REFERENCE_PAGE = 1000;

/** Stored audio: uploads, who may hear what, reading and deleting. Other features call this. */
export class AudioService implements StoredFileOwner {
  constructor(
    private readonly repo: AudioRepo,
    private readonly storage: AudioStorage,
  ) {}

  /**
   * Stores an uploaded stream after checking its first bytes are audio (400 otherwise) and its size
   * (413 beyond `maxBytes`; nothing is left behind). Returns the new audio row's id and URL.
   *
   * With an `uploadKey` (the browser's id for one recording), sending the same recording again as
   * the same uploader answers the first upload instead of storing a copy: a retry after an answer
   * lost on the network never duplicates audio. The key is hashed with the uploader, so another
   * uploader's key never finds this upload; a unique index finds it.
   */
  async storeUpload(
    input: UploadInput & { uploadKey?: string },
  ): Promise<{ id: string; url: string; row: AudioRow; repeated: boolean }> {
    const keyBase = input.uploadKey ? derivedKeyBase(input.owner, input.uploadKey) : newId();
    if (input.uploadKey) {
      const earlier = await this.repo.findByUploadKey(keyBase);
      if (earlier) {
        input.source.resume();
        return { id: earlier.id, url: audioUrl(earlier.id), row: earlier, repeated: true };
      }
    }
    const { kind, stream } = await checkedAudio(input);
    const id = newId();
    const storageKey = `${keyBase}.${kind.extension}`;
    const { bytes } = await this.storage.write(storageKey, stream);
    const row: AudioRow = {
      id,
      storage_key: storageKey,
      content_type: kind.contentType,
      bytes,
      owner_user_id: "userId" in input.owner ? input.owner.userId : null,
      owner_anon_hash: "anonHash" in input.owner ? input.owner.anonHash : null,
      attached_to: null,
      upload_key: input.uploadKey ? keyBase : null,
      created_at: nowIso(),
    };
    try {
      await this.repo.insert(row);
    } catch (error) {
      // The same recording sent twice at once: the other request stored the same bytes here.
      const earlier = input.uploadKey ? await this.repo.findByUploadKey(keyBase) : undefined;
      if (earlier)
        return { id: earlier.id, url: audioUrl(earlier.id), row: earlier, repeated: true };
      await this.storage.delete(storageKey);
      // The uploader's account was deleted while the file streamed: logged out, not a crash.
      if ("userId" in input.owner && isForeignKeyViolation(error)) throw unauthorized();
      throw error;
    }
    return { id, url: audioUrl(id), row, repeated: false };
  }

  /**
   * Checks a stream the way an upload is checked (audio by its bytes, structure, minimum size,
   * `maxBytes`) and reads it to the end without storing it: the dry run of a restore. Throws a 400
   * or 413 HttpError like an upload; returns the kind and the byte count.
   */
  async verify(source: Readable, maxBytes: number): Promise<{ kind: SniffedAudio; bytes: number }> {
    const { kind, stream } = await checkedAudio({ source, maxBytes, owner: { anonHash: "" } });
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    return { kind, bytes };
  }

  /**
   * Stores a checked stream for a restored memory or comment that does not exist yet. Its row is
   * inserted first, unattached: if the process dies before the restore's transaction attaches it
   * (`attachImported`), the unattached-upload sweep removes the row and the file, so a killed
   * restore leaves no file that nothing knows of. On a failed import call `discardImported`.
   */
  async storeForImport(input: {
    source: Readable;
    maxBytes: number;
    userId: string;
    attachment: Attachment;
  }): Promise<ImportedAudio> {
    const { kind, stream } = await checkedAudio({
      source: input.source,
      maxBytes: input.maxBytes,
      owner: { userId: input.userId },
    });
    const row: AudioRow = {
      id: newId(),
      storage_key: `${newId()}.${kind.extension}`,
      content_type: kind.contentType,
      bytes: 0,
      owner_user_id: input.userId,
      owner_anon_hash: null,
      attached_to: null,
      upload_key: null,
      created_at: nowIso(),
    };
    await this.repo.insert(row);
    try {
      const { bytes } = await this.storage.write(row.storage_key, stream);
      return { ...row, bytes, attachment: input.attachment };
    } catch (error) {
      await this.repo.deleteMany([row.id]).catch(() => undefined);
      throw error;
    }
  }

  /** Attaches files stored by `storeForImport` inside the transaction that creates their owners. */
  async attachImported(rows: readonly ImportedAudio[], trx: Executor): Promise<void> {
    for (const row of rows) {
      if (!(await this.repo.attach(row.id, row.attachment, trx, row.bytes))) {
        throw new Error(`restored audio ${row.id} is gone or already attached`);
      }
    }
  }

  /**
   * Removes what `storeForImport` stored for an import that failed. When the database cannot be
   * reached the rows stay unattached and the sweep removes them with their files later.
   */
  async discardImported(rows: readonly ImportedAudio[]): Promise<void> {
    if (rows.length === 0) return;
    await this.repo.deleteMany(rows.map((row) => row.id));
    await this.removeFiles(rows.map((row) => row.storage_key));
  }

  /** The audio row behind `url` when this identity uploaded it (to make a memory or comment of it). */
  async findUploadForOwner(url: string, identity: Identity): Promise<AudioRow | null> {
    const id = audioIdFromUrl(url);
    if (!id) return null;
    const row = await this.repo.findById(id);
    return row && can(identity, "upload.use", row) ? row : null;
  }

  /**
   * The audio row when it exists and this identity may hear it; null otherwise (answer 404). An
   * upload not yet attached is the uploader's alone; once attached, `mayHear` (the visibility of
   * the memory it belongs to) decides.
   */
  async findVisible(
    id: string,
    identity: Identity,
    mayHear: AttachmentVisibility,
  ): Promise<AudioRow | null> {
    if (!AUDIO_ID.test(id)) return null;
    const row = await this.repo.findById(id);
    if (!row) return null;
    const attachment = parseAttachment(row.attached_to);
    const visible = attachment
      ? await mayHear(attachment, identity)
      : can(identity, "upload.use", row);
    return visible ? row : null;
  }

  /**
   * Attaches an upload to a memory or comment inside the caller's transaction; false when it
   * already belongs to something (the database lets exactly one attempt win).
   */
  attach(audioId: string, attachment: Attachment, trx: Executor): Promise<boolean> {
    return this.repo.attach(audioId, attachment, trx);
  }

  /** What an upload is attached to, or null while it is not (or does not exist). */
  async attachmentOf(audioId: string): Promise<Attachment | null> {
    return parseAttachment((await this.repo.findById(audioId))?.attached_to ?? null);
  }

  /** A claimed recording's upload belongs to the new owner, in the claim's transaction. */
  setUploader(audioId: string, userId: string, trx: Executor): Promise<void> {
    return this.repo.setUploader(audioId, userId, trx);
  }

  async findMany(ids: readonly string[]): Promise<AudioRow[]> {
    return this.repo.findMany(ids);
  }

  async findById(id: string): Promise<AudioRow | null> {
    return (await this.repo.findById(id)) ?? null;
  }

  /** The stored size in bytes, or null when the file is missing. */
  size(row: AudioRow): Promise<number | null> {
    return this.storage.size(row.storage_key);
  }

  /** A stream of the audio bytes (all, or an inclusive range), e.g. for transcription or backup. */
  open(row: AudioRow, range?: ByteRange): Readable {
    return this.storage.read(row.storage_key, range);
  }

  /**
   * Deletes audio rows inside the caller's transaction (after the memory or comment that used
   * them) and returns their storage keys: remove the files with `removeFiles` after the commit.
   */
  deleteRows(ids: readonly string[], trx: Executor): Promise<string[]> {
    return this.repo.deleteMany(ids, trx);
  }

  /**
   * Part of deleting an account, inside the caller's transaction: the user's uploads that belong
   * to no memory or comment. Returns their storage keys for `removeFiles` after the commit.
   * (Uploads attached to comments on other people's memories stay with those memories.)
   */
  deleteUnattachedOf(userId: string, trx: Executor): Promise<string[]> {
    return this.repo.deleteUnattachedOfUser(userId, trx);
  }

  /**
   * Housekeeping: deletes uploads that were never attached to a memory or comment and were made
   * before `cutoff` (rows first, then files). Returns how many went.
   */
  async sweepUnattached(cutoff: Date): Promise<number> {
    const keys = await this.repo.deleteUnattachedBefore(cutoff);
    await this.removeFiles(keys);
    return keys.length;
  }

  async *references(): AsyncIterable<FileReference> {
    let afterId = "";
    for (;;) {
      const rows = await this.repo.pageById(afterId, REFERENCE_PAGE);
      for (const row of rows) {
        yield {
          key: row.storage_key,
          label: `audio ${row.id}${row.attached_to ? ` of ${row.attached_to}` : " (never attached)"}`,
          disposable: row.attached_to === null,
        };
      }
      const last = rows.at(-1);
      if (!last || rows.length < REFERENCE_PAGE) return;
      afterId = last.id;
    }
  }

  deleteDisposable(keys: readonly string[]): Promise<number> {
    return this.repo.deleteUnattachedByKeys(keys);
  }

  /**
   * Removes stored files whose rows are gone. A file that fails to delete is an orphan, never a
   * memory pointing at missing audio.
   */
  async removeFiles(storageKeys: readonly string[]): Promise<void> {
    for (const key of storageKeys) await this.storage.delete(key).catch(() => undefined);
  }
}

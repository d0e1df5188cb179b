import { Readable } from "node:stream";
import type { AudioRepo } from "../../src/server/audio/audio.repo";
import { newId, nowIso } from "../../src/server/ids";
import type { AudioStorage } from "../../src/server/storage/audio-storage";

/**
 * One recording as the app stores it for a memory: the file in storage and its audio row,
 * already attached to the memory id returned, with its storage key (the caller inserts the memory, one by one or in a
 * batch).
 */
export async function storeRecording(
  storage: AudioStorage,
  audioRepo: AudioRepo,
  ownerUserId: string,
  bytes: Buffer,
): Promise<{ audioId: string; memoryId: string; key: string }> {
  const audioId = newId();
  const memoryId = newId();
  const key = `${audioId}.mp3`;
  await storage.write(key, Readable.from([bytes]));
  await audioRepo.insert({
    id: audioId,
    storage_key: key,
    content_type: "audio/mpeg",
    bytes: bytes.length,
    owner_user_id: ownerUserId,
    owner_anon_hash: null,
    attached_to: `memory:${memoryId}`,
    upload_key: null,
    created_at: nowIso(),
  });
  return { audioId, memoryId, key };
}

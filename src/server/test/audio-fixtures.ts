import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { run } from "../ai/audio-split";
import { AudioRepo } from "../audio/audio.repo";
import type { DatabaseHandle } from "../db/connection";
import { newId, nowIso } from "../ids";
import type { AudioStorage } from "../storage/audio-storage";
import { makeTempDir } from "./harness";

/** A real MP3 of espeak-ng speech (mono, 64 kbit/s). */
export async function speechMp3(text: string): Promise<Buffer> {
  const dir = await makeTempDir("vmj-speech-");
  try {
    const wav = path.join(dir, "speech.wav");
    await run("espeak-ng", ["-w", wav, text]);
    const mp3 = path.join(dir, "speech.mp3");
    await run("ffmpeg", ["-loglevel", "error", "-i", wav, "-ac", "1", "-b:a", "64k", mp3]);
    return await readFile(mp3);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stores audio as an upload would (file plus audio_files row) and returns its id. */
export async function storeAudioFixture(
  database: DatabaseHandle,
  storage: AudioStorage,
  bytes: Buffer,
  owner: { userId?: string; anonHash?: string } = {},
): Promise<{ id: string; storageKey: string }> {
  const id = newId();
  const storageKey = `${newId()}.mp3`;
  await storage.write(storageKey, Readable.from([bytes]));
  await new AudioRepo(database.db).insert({
    id,
    storage_key: storageKey,
    content_type: "audio/mpeg",
    bytes: bytes.length,
    owner_user_id: owner.userId ?? null,
    owner_anon_hash: owner.anonHash ?? null,
    attached_to: null,
    upload_key: null,
    created_at: nowIso(),
  });
  return { id, storageKey };
}

import type { Config } from "../config";
import type { AudioStorage } from "./audio-storage";
import { LocalAudioStorage } from "./local-storage";
import { S3AudioStorage } from "./s3-storage";

/** The audio storage STORAGE_URL selects: the DATA_DIR/audio folder or an S3-compatible bucket. */
export function createAudioStorage(storage: Config["storage"]): AudioStorage {
  if (storage.kind === "local") return new LocalAudioStorage(storage.dir);
  const { kind: _kind, ...settings } = storage;
  return new S3AudioStorage(settings);
}

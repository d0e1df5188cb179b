import {
  AUDIO_BITS_PER_SECOND,
  AUDIO_IDEAL_SAMPLE_RATE,
  AUDIO_MIN_SAMPLE_RATE,
  MIN_RECORDING_BYTES,
  RECORDING_MIME_TYPES,
} from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { ProductError } from "../../lib/api-client";

/** A recorder failure whose message is one of the spec's exact texts. */
export class RecorderError extends ProductError {
  constructor(
    message: string,
    /** True when the microphone itself could not be used (the watch view toasts these). */
    readonly microphone = false,
  ) {
    super(message);
  }
}

/** The browser features recording needs; passed in so the rules are testable. */
export interface RecordingEnvironment {
  mediaDevices?: { getUserMedia?: unknown } | undefined;
  MediaRecorder?: { isTypeSupported?: (type: string) => boolean } | undefined;
}

export function browserEnvironment(): RecordingEnvironment {
  return {
    mediaDevices: typeof navigator === "undefined" ? undefined : navigator.mediaDevices,
    MediaRecorder: typeof MediaRecorder === "undefined" ? undefined : MediaRecorder,
  };
}

/** Spec 5: microphone and MediaRecorder support, then the first format supported, in order. */
export function chooseRecordingFormat(env: RecordingEnvironment): string {
  if (typeof env.mediaDevices?.getUserMedia !== "function" || !env.MediaRecorder) {
    throw new RecorderError(MESSAGES.recordingUnsupported);
  }
  const isTypeSupported = env.MediaRecorder.isTypeSupported;
  const supported = RECORDING_MIME_TYPES.find((type) => {
    try {
      return typeof isTypeSupported === "function" && isTypeSupported(type);
    } catch {
      return false;
    }
  });
  if (!supported) throw new RecorderError(MESSAGES.noSupportedFormat);
  return supported;
}

/** Spec 9: mono, ideal 44.1 kHz (at least 22.05 kHz), echo cancellation, noise suppression, gain. */
export const AUDIO_CONSTRAINTS: MediaTrackConstraints = {
  channelCount: 1,
  sampleRate: { ideal: AUDIO_IDEAL_SAMPLE_RATE, min: AUDIO_MIN_SAMPLE_RATE },
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

export function recorderOptions(mimeType: string): MediaRecorderOptions {
  return { mimeType, audioBitsPerSecond: AUDIO_BITS_PER_SECOND };
}

/** Spec 5: what getUserMedia's failure means to the person recording. */
export function microphoneError(error: unknown): RecorderError {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError") {
    return new RecorderError(MESSAGES.microphoneDenied, true);
  }
  return new RecorderError(MESSAGES.recorderError, true);
}

/** Spec 5: an empty recording, then one under 1024 bytes. */
export function checkRecording(chunks: readonly Blob[], blob: Blob): void {
  if (chunks.length === 0 || blob.size === 0) throw new RecorderError(MESSAGES.noAudioData);
  if (blob.size < MIN_RECORDING_BYTES) throw new RecorderError(MESSAGES.recordingTooShort);
}

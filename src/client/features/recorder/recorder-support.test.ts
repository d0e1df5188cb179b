import { describe, expect, it } from "vitest";
import { RECORDING_MIME_TYPES } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import {
  AUDIO_CONSTRAINTS,
  checkRecording,
  chooseRecordingFormat,
  microphoneError,
  RecorderError,
  recorderOptions,
} from "./recorder-support";

const mediaDevices = { getUserMedia: () => Promise.resolve() };
const recorderSupporting = (...types: string[]) => ({
  isTypeSupported: (type: string) => types.includes(type),
});

describe("chooseRecordingFormat (spec 5)", () => {
  it("needs getUserMedia and MediaRecorder", () => {
    expect(() =>
      chooseRecordingFormat({ MediaRecorder: recorderSupporting("audio/webm") }),
    ).toThrow(MESSAGES.recordingUnsupported);
    expect(() =>
      chooseRecordingFormat({ mediaDevices: {}, MediaRecorder: recorderSupporting() }),
    ).toThrow(MESSAGES.recordingUnsupported);
    expect(() => chooseRecordingFormat({ mediaDevices })).toThrow(MESSAGES.recordingUnsupported);
  });

  it("tries the formats in the spec's order", () => {
    expect(RECORDING_MIME_TYPES).toEqual([
      "audio/webm;codecs=opus",
      "audio/webm",
      "audio/mp4",
      "audio/mp4;codecs=mp4a.40.2",
      "audio/mpeg",
      "audio/ogg;codecs=opus",
      "audio/wav",
    ]);
    // Each format wins when it is the first one supported.
    RECORDING_MIME_TYPES.forEach((type, index) => {
      const later = RECORDING_MIME_TYPES.slice(index);
      expect(
        chooseRecordingFormat({ mediaDevices, MediaRecorder: recorderSupporting(...later) }),
      ).toBe(type);
    });
    expect(
      chooseRecordingFormat({
        mediaDevices,
        MediaRecorder: recorderSupporting("audio/wav", "audio/mp4", "audio/webm"),
      }),
    ).toBe("audio/webm");
  });

  it("says so when no format works (also when the check itself throws)", () => {
    expect(() =>
      chooseRecordingFormat({ mediaDevices, MediaRecorder: recorderSupporting() }),
    ).toThrow(MESSAGES.noSupportedFormat);
    const throwing = {
      isTypeSupported: () => {
        throw new Error("boom");
      },
    };
    expect(() => chooseRecordingFormat({ mediaDevices, MediaRecorder: throwing })).toThrow(
      MESSAGES.noSupportedFormat,
    );
  });
});

describe("microphoneError", () => {
  it.each(["NotAllowedError", "PermissionDeniedError", "SecurityError"])(
    "%s means permission denied",
    (name) => {
      const error = microphoneError(new DOMException("denied", name));
      expect(error).toBeInstanceOf(RecorderError);
      expect(error.message).toBe(MESSAGES.microphoneDenied);
      expect(error.microphone).toBe(true);
    },
  );
  it("anything else is the generic recorder error", () => {
    const error = microphoneError(new DOMException("no device", "NotFoundError"));
    expect(error.message).toBe(MESSAGES.recorderError);
    expect(error.microphone).toBe(true);
    expect(microphoneError("weird").message).toBe(MESSAGES.recorderError);
  });
});

describe("checkRecording (spec 5)", () => {
  const blob = (size: number) => new Blob([new Uint8Array(size)]);
  it("refuses an empty recording", () => {
    expect(() => checkRecording([], blob(0))).toThrow(MESSAGES.noAudioData);
    expect(() => checkRecording([blob(0)], blob(0))).toThrow(MESSAGES.noAudioData);
  });
  it("refuses a recording under 1024 bytes", () => {
    expect(() => checkRecording([blob(1023)], blob(1023))).toThrow(MESSAGES.recordingTooShort);
  });
  it("accepts 1024 bytes and more", () => {
    expect(() => checkRecording([blob(1024)], blob(1024))).not.toThrow();
  });
});

describe("capture settings (spec 9)", () => {
  it("asks for mono, 44.1 kHz ideally (22.05 kHz at least), with the browser's voice processing", () => {
    expect(AUDIO_CONSTRAINTS).toEqual({
      channelCount: 1,
      sampleRate: { ideal: 44100, min: 22050 },
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    });
  });
  it("records at 128000 bits per second", () => {
    expect(recorderOptions("audio/webm")).toEqual({
      mimeType: "audio/webm",
      audioBitsPerSecond: 128000,
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  initialRecorderState,
  type RecorderEvent,
  type RecorderState,
  recorderReducer,
} from "./use-recorder";

const stream = {} as MediaStream;

function run(...events: RecorderEvent[]): RecorderState {
  return events.reduce(recorderReducer, initialRecorderState);
}

describe("recorderReducer", () => {
  it("goes idle, acquiring, recording, stopping, processing and back to idle once saved", () => {
    const events: RecorderEvent[] = [
      { type: "start" },
      { type: "opened", stream },
      { type: "stop" },
      { type: "stopped" },
      { type: "saved" },
    ];
    const phases = [initialRecorderState];
    for (const event of events)
      phases.push(recorderReducer(phases.at(-1) ?? initialRecorderState, event));
    expect(phases.map((state) => state.phase)).toEqual([
      "idle",
      "acquiring",
      "recording",
      "stopping",
      "processing",
      "idle",
    ]);
    // The microphone's stream is there only while recording (and while it hands over the audio).
    expect(phases.map((state) => state.stream !== null)).toEqual([
      false,
      false,
      true,
      true,
      false,
      false,
    ]);
  });

  it("ignores an event that does not fit the phase", () => {
    expect(run({ type: "stop" })).toEqual(initialRecorderState);
    expect(run({ type: "opened", stream }).phase).toBe("idle");
    expect(run({ type: "saved" }).phase).toBe("idle");
    const recording = run({ type: "start" }, { type: "opened", stream });
    expect(recorderReducer(recording, { type: "start" })).toBe(recording);
  });

  it("a failure goes back to idle with the red box; the next start clears it", () => {
    const failed = run({ type: "start" }, { type: "failed", error: "Microphone access denied" });
    expect(failed).toMatchObject({ phase: "idle", error: "Microphone access denied" });
    expect(recorderReducer(failed, { type: "start" })).toMatchObject({
      phase: "acquiring",
      error: null,
    });
  });

  it("cancelling while recording goes back to idle without processing", () => {
    const cancelled = run({ type: "start" }, { type: "opened", stream }, { type: "cancelled" });
    expect(cancelled).toMatchObject({ phase: "idle", stream: null, error: null });
  });

  it("a kept recording leaves a note and its reason until it is done", () => {
    const kept = run(
      { type: "start" },
      { type: "opened", stream },
      { type: "stop" },
      { type: "stopped" },
      { type: "notice", notice: "Kept on this device" },
      { type: "kept", id: "r1", reason: "The file is not audio" },
    );
    expect(kept).toMatchObject({
      phase: "idle",
      kept: "r1",
      keptReason: "The file is not audio",
      notice: "Kept on this device",
      error: null,
    });
    expect(recorderReducer(kept, { type: "clear" })).toEqual(initialRecorderState);
  });
});

import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_NOTICE_MIN_MS, TAKE_YOUR_TIME_AFTER_MS } from "../../../../shared/constants";
import { ERROR_MESSAGES, MESSAGES, pendingRecordingsLabel } from "../../../../shared/messages";
import { Toaster } from "../../../components/ui/toaster";
import { dismissToast } from "../../../components/ui/use-toast";
import { ApiError } from "../../../lib/api-client";
import { type Finisher, memoryStore, UploadQueue } from "../../../lib/upload-queue";
import { UploadQueueProvider } from "../../../lib/upload-queue-context";
import { fakeClock, passTime } from "../../../test/fake-api";
import { uploadAudio } from "../api/upload-audio";
import { PendingRecordings } from "./pending-recordings";
import { Recorder } from "./recorder";

// MediaRecorder and getUserMedia are the browser's boundary; jsdom has neither, so they are
// stubbed here. The real ones are exercised in Chromium by e2e/recorder.test.ts.

/** How many bytes the fake recorder produces when stopped. */
let recordedBytes = 4096;
const recorders: FakeMediaRecorder[] = [];

class FakeMediaRecorder {
  static supported = ["audio/webm;codecs=opus", "audio/webm"];
  static isTypeSupported(type: string) {
    return FakeMediaRecorder.supported.includes(type);
  }
  state: "inactive" | "recording" | "paused" = "inactive";
  mimeType: string;
  timeslice: number | undefined;
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(
    readonly stream: MediaStream,
    readonly options: MediaRecorderOptions,
  ) {
    this.mimeType = options.mimeType ?? "";
    recorders.push(this);
  }
  start(timeslice?: number) {
    this.timeslice = timeslice;
    this.state = "recording";
  }
  pause() {
    if (this.state === "recording") this.state = "paused";
  }
  resume() {
    if (this.state === "paused") this.state = "recording";
  }
  stop() {
    this.state = "inactive";
    queueMicrotask(() => {
      if (recordedBytes > 0) {
        this.ondataavailable?.({
          data: new Blob([new Uint8Array(recordedBytes)], { type: this.mimeType }),
        });
      }
      this.onstop?.();
    });
  }
}

const track = { stop: vi.fn(), getSettings: () => ({ sampleRate: 48000 }) };
const stream = {
  getTracks: () => [track],
  getAudioTracks: () => [track],
} as unknown as MediaStream;
const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<MediaStream>>();
const fetchMock = vi.fn<typeof fetch>();

function uploadAnswers(...answers: ("ok" | "network" | 400)[]) {
  let n = 0;
  fetchMock.mockImplementation(async () => {
    const answer = answers[Math.min(n, answers.length - 1)];
    n += 1;
    if (answer === "network") throw new TypeError("Failed to fetch");
    if (answer === 400) {
      return new Response(
        JSON.stringify({ code: "audio.not_audio", message: "audio: the file is not audio" }),
        {
          status: 400,
        },
      );
    }
    return new Response(JSON.stringify({ url: `/api/audio/a${n}`, id: `a${n}` }), { status: 201 });
  });
}

function uploadedFile(call = 0): File {
  const body = fetchMock.mock.calls[call]?.[1]?.body as FormData;
  return body.get("audio") as File;
}

beforeEach(() => {
  recordedBytes = 4096;
  recorders.length = 0;
  FakeMediaRecorder.supported = ["audio/webm;codecs=opus", "audio/webm"];
  getUserMedia.mockReset().mockResolvedValue(stream);
  track.stop.mockReset();
  fetchMock.mockReset();
  uploadAnswers("ok");
  vi.stubGlobal("MediaRecorder", FakeMediaRecorder);
  vi.stubGlobal("fetch", fetchMock);
  Object.defineProperty(navigator, "mediaDevices", {
    value: { getUserMedia },
    configurable: true,
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  act(() => dismissToast());
});

let uploads: UploadQueue;

/** Renders with an upload queue of its own, kept in memory, running `finishers` by kind. */
function renderRecorder(ui: ReactElement, finishers: Record<string, Finisher> = {}) {
  uploads = new UploadQueue({ upload: uploadAudio, finishers, store: memoryStore() });
  return render(<UploadQueueProvider queue={uploads}>{ui}</UploadQueueProvider>);
}

async function record(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
  await screen.findByRole("button", { name: MESSAGES.stopRecording });
}

describe("Recorder", () => {
  it("records with the spec's settings, then converts, uploads and finishes", async () => {
    const user = fakeClock();
    let release: (value: unknown) => void = () => {};
    const finisher = vi.fn(async (_upload: unknown, report: (notice: string) => void) => {
      report("Transcribing...");
      return new Promise((resolve) => {
        release = resolve;
      });
    });
    const finishers = { "test-memory": finisher };
    const onSaved = vi.fn();
    renderRecorder(<Recorder kind="test-memory" meta={{ note: 1 }} onSaved={onSaved} />, finishers);

    expect(screen.getByTestId("audio-visualiser")).toHaveAttribute("data-active", "false");
    await record(user);
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: {
        channelCount: 1,
        sampleRate: { ideal: 44100, min: 22050 },
        echoCancellation: true,
        noiseSuppression: true,
        autoGainControl: true,
      },
    });
    const recorder = recorders[0];
    expect(recorder?.options).toEqual({
      mimeType: "audio/webm;codecs=opus",
      audioBitsPerSecond: 128000,
    });
    expect(recorder?.timeslice).toBe(100);
    expect(screen.getByRole("button", { name: MESSAGES.cancelRecording })).toBeInTheDocument();
    expect(screen.getByTestId("audio-visualiser")).toHaveAttribute("data-active", "true");

    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    expect(await screen.findByRole("button", { name: MESSAGES.processing })).toBeDisabled();
    // Converting and uploading are quick here; their notices still have their time first.
    expect(screen.getByRole("status")).toHaveTextContent(MESSAGES.convertingToMp3);
    await passTime(2 * PROGRESS_NOTICE_MIN_MS, () => finisher.mock.calls.length > 0);
    expect(screen.getByRole("status")).toHaveTextContent("Transcribing...");
    expect(track.stop).toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: MESSAGES.cancelRecording })).toBeNull();

    // jsdom cannot decode audio, so conversion fails and the original is uploaded (spec 5 mapping).
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/upload");
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toEqual({
      "x-upload-key": expect.stringMatching(/^[A-Za-z0-9-]{8,100}$/),
    });
    expect(uploadedFile().name).toBe("recording.webm");
    expect(uploadedFile().size).toBe(4096);
    expect(finisher.mock.calls[0]?.[0]).toMatchObject({
      url: "/api/audio/a1",
      id: "a1",
      meta: { note: 1 },
    });

    await act(async () => release({ memoryId: "m1" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ memoryId: "m1" }));
    expect(screen.getByRole("button", { name: MESSAGES.startRecording })).toBeEnabled();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows every step's notice in order, each for the minimum time, however fast the steps are", async () => {
    // A finisher whose server did everything between two polls reports its steps at once.
    const finishers: Record<string, Finisher> = {
      "test-fast": async (_upload, report) => {
        for (const notice of ["Transcribing...", "Summarizing...", "Saving..."])
          void report(notice);
        return "done";
      },
    };
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="test-fast" onSaved={onSaved} />, finishers);
    await record(user);
    const status = screen.getByRole("status");
    // From here the clock moves only when the test moves it.
    vi.useFakeTimers();
    const seen: { text: string; at: number }[] = [];
    const observer = new MutationObserver(() => {
      const text = status.textContent ?? "";
      if (text !== seen.at(-1)?.text) seen.push({ text, at: Date.now() });
    });
    observer.observe(status, { childList: true, characterData: true, subtree: true });
    fireEvent.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    await passTime(6 * PROGRESS_NOTICE_MIN_MS, () => onSaved.mock.calls.length > 0);
    expect(onSaved).toHaveBeenCalledWith("done");
    observer.disconnect();
    expect(seen.map((s) => s.text)).toEqual([
      MESSAGES.convertingToMp3,
      MESSAGES.uploading,
      "Transcribing...",
      "Summarizing...",
      "Saving...",
      "",
    ]);
    // Each was on screen for the minimum time.
    for (let i = 1; i < seen.length; i++) {
      const shownFor = (seen[i]?.at ?? 0) - (seen[i - 1]?.at ?? 0);
      expect(shownFor, seen[i - 1]?.text).toBeGreaterThanOrEqual(PROGRESS_NOTICE_MIN_MS);
    }
  });

  it("shows the time recorded, large, which stands still while paused and runs on after Resume", async () => {
    const user = fakeClock();
    renderRecorder(<Recorder kind="test-memory" />, { "test-memory": async () => "done" });
    expect(screen.queryByRole("timer")).toBeNull();
    await record(user);
    const timer = screen.getByRole("timer", { name: MESSAGES.recordingTime });
    expect(timer).toHaveTextContent("0:00");
    await act(async () => vi.advanceTimersByTimeAsync(65_000));
    expect(timer).toHaveTextContent("1:05");

    await user.click(screen.getByRole("button", { name: MESSAGES.pauseRecording }));
    expect(recorders[0]?.state).toBe("paused");
    expect(screen.getByText(MESSAGES.recordingPaused)).toBeVisible();
    const visualiser = screen.getByTestId("audio-visualiser");
    expect(visualiser).toHaveAttribute("data-paused", "true");
    expect(visualiser).toHaveAccessibleName(MESSAGES.recordingPaused);
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    expect(timer).toHaveTextContent("1:05");

    // The same button, so focus stays on it: Resume carries on where it left off.
    const resume = screen.getByRole("button", { name: MESSAGES.resumeRecording });
    expect(resume).toHaveFocus();
    await user.click(resume);
    expect(recorders[0]?.state).toBe("recording");
    expect(screen.queryByText(MESSAGES.recordingPaused)).toBeNull();
    expect(visualiser).toHaveAttribute("data-paused", "false");
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(timer).toHaveTextContent("1:10");

    // Stopping while paused keeps the recording; the next one starts from 0:00.
    await user.click(screen.getByRole("button", { name: MESSAGES.pauseRecording }));
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    await passTime(4 * PROGRESS_NOTICE_MIN_MS, () => fetchMock.mock.calls.length > 0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("timer")).toBeNull();
    await screen.findByRole("button", { name: MESSAGES.startRecording });
    await record(user);
    expect(screen.getByRole("timer")).toHaveTextContent("0:00");
  });

  it("says the chosen question again while recording", async () => {
    const user = userEvent.setup();
    const question = "What was your first job?";
    renderRecorder(<Recorder kind="test-memory" question={question} />);
    expect(screen.queryByText(question)).toBeNull();
    await record(user);
    expect(screen.getByTestId("recording-question")).toHaveTextContent(
      `${MESSAGES.recordingAnswering} ${question}`,
    );
  });

  it("after ten minutes, says calmly to take your time", async () => {
    const user = fakeClock();
    renderRecorder(<Recorder kind="test-memory" />);
    await record(user);
    await act(async () => vi.advanceTimersByTimeAsync(TAKE_YOUR_TIME_AFTER_MS - 1_000));
    expect(screen.queryByText(MESSAGES.takeYourTime)).toBeNull();
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.getByText(MESSAGES.takeYourTime)).toBeVisible();
    expect(screen.getByRole("timer")).toHaveTextContent("10:00");
  });

  it("cancelling discards the audio and uploads nothing", async () => {
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderRecorder(<Recorder kind="memory" onSaved={onSaved} />);
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.cancelRecording }));
    // Start Recording is back only once the stopped recorder's audio was handled (dropped).
    await screen.findByRole("button", { name: MESSAGES.startRecording });
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalled();
  });

  it.each([
    [0, MESSAGES.noAudioData],
    [1023, MESSAGES.recordingTooShort],
  ])("a recording of %i bytes shows its message and uploads nothing", async (bytes, message) => {
    recordedBytes = bytes;
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="memory" />);
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says when the browser cannot record", async () => {
    vi.stubGlobal("MediaRecorder", undefined);
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="memory" />);
    await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.recordingUnsupported);
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it("says when no audio format is supported", async () => {
    FakeMediaRecorder.supported = [];
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="memory" />);
    await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.noSupportedFormat);
  });

  it("explains a denied microphone; the watch view also toasts 'Microphone Error'", async () => {
    getUserMedia.mockRejectedValue(new DOMException("Permission denied", "NotAllowedError"));
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="memory" variant="watch" />
        <Toaster />
      </>,
    );
    await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.microphoneDenied);
    expect(await screen.findByText(MESSAGES.microphoneError)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.microphoneErrorDescription)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.recordingFailed)).not.toBeInTheDocument();
  });

  it("toasts 'Recording failed' beside the inline box when the microphone is refused", async () => {
    getUserMedia.mockRejectedValue(new DOMException("Permission denied", "NotAllowedError"));
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="memory" />
        <Toaster />
      </>,
    );
    await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.microphoneDenied);
    expect(await screen.findByText(MESSAGES.recordingFailed)).toBeInTheDocument();
    // The reason is said once, in the recorder; the toast names the failure only.
    expect(screen.getAllByText(MESSAGES.microphoneDenied)).toHaveLength(1);
    expect(screen.getByRole("button", { name: MESSAGES.startRecording })).toBeEnabled();
  });

  it("toasts 'Recording failed' when the browser's recorder fails mid-recording", async () => {
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="memory" />
        <Toaster />
      </>,
    );
    await record(user);
    act(() => recorders[0]?.onerror?.());
    expect(await screen.findByText(MESSAGES.recordingFailed)).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(MESSAGES.recorderError);
    await screen.findByRole("button", { name: MESSAGES.startRecording });
    // The stopped recorder's audio arrives after the failure and is dropped, not converted.
    await waitFor(() => expect(track.stop).toHaveBeenCalled());
    expect(within(screen.getByTestId("recorder")).getByRole("status")).toBeEmptyDOMElement();
    expect(screen.getByTestId("recorder")).toHaveAttribute("data-state", "idle");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("keyboard: focus moves to Stop Recording when recording starts, so a second Enter stops (never cancels), and back to Start after", async () => {
    const user = fakeClock();
    renderRecorder(<Recorder kind="comment" />);
    screen.getByRole("button", { name: MESSAGES.startRecording }).focus();
    await user.keyboard("{Enter}");
    const stopButton = await screen.findByRole("button", { name: MESSAGES.stopRecording });
    await waitFor(() => expect(stopButton).toHaveFocus());
    expect(screen.getByRole("button", { name: MESSAGES.cancelRecording })).not.toHaveFocus();
    // Stopping by keyboard: once the recording is saved, focus is back on Start Recording.
    await user.keyboard("{Enter}");
    // Converting and uploading each have their notice's time.
    await passTime(2 * PROGRESS_NOTICE_MIN_MS);
    const startButton = screen.getByRole("button", { name: MESSAGES.startRecording });
    await waitFor(() => expect(startButton).toHaveFocus());
  });

  it("does not start when beforeStart says no", async () => {
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="comment" beforeStart={() => false} />);
    await user.click(screen.getByRole("button", { name: MESSAGES.startRecording }));
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: MESSAGES.startRecording })).toBeEnabled();
  });

  it("keeps a recording whose upload failed, shows it as pending, and Retry uploads it", async () => {
    uploadAnswers("network", "ok");
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="memory" onSaved={onSaved} />
        <PendingRecordings />
      </>,
    );
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    // Offline: a calm note that the recording is safe, never the red error box.
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent(MESSAGES.recordingKeptOnDevice),
    );
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByText(MESSAGES.failedUploadAudio)).toBeNull();
    expect(await screen.findByText(pendingRecordingsLabel(1))).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: MESSAGES.retry }));
    await waitFor(() => expect(screen.queryByTestId("pending-recordings")).toBeNull());
    // Once the retry succeeded, the "kept" note is gone.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(""));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(uploadedFile(1).size).toBe(4096);
    // The retry names the same recording, so the server never stores it twice.
    expect(fetchMock.mock.calls[1]?.[1]?.headers).toEqual(fetchMock.mock.calls[0]?.[1]?.headers);
  });

  it("never uploads twice: a failed finisher is retried with the stored url", async () => {
    let fail = true;
    const finisher = vi.fn(async (upload: { url: string }) => {
      if (fail) throw new Error("Failed to create memory");
      return upload.url;
    });
    const finishers = { "test-retry": finisher };
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="test-retry" />
        <PendingRecordings />
      </>,
      finishers,
    );
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent(MESSAGES.recordingKeptWillResend),
    );
    expect(screen.queryByRole("alert")).toBeNull();
    fail = false;
    await user.click(await screen.findByRole("button", { name: MESSAGES.retry }));
    await waitFor(() => expect(screen.queryByTestId("pending-recordings")).toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(finisher).toHaveBeenCalledTimes(2);
    expect(finisher.mock.calls[1]?.[0]).toMatchObject({ url: "/api/audio/a1" });
  });

  it("a refused request (429) is not blamed on the connection: the note says it is sent again", async () => {
    let refuse = true;
    const finisher = vi.fn(async () => {
      if (!refuse) return "saved";
      throw new ApiError(
        429,
        `429: ${JSON.stringify({ code: "too_many_requests", message: MESSAGES.tooManyRequests })}`,
        JSON.stringify({ code: "too_many_requests", message: MESSAGES.tooManyRequests }),
      );
    });
    const finishers = { "test-429": finisher };
    const user = userEvent.setup();
    renderRecorder(<Recorder kind="test-429" />, finishers);
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent(MESSAGES.recordingKeptWillResend),
    );
    expect(screen.getByRole("status")).not.toHaveTextContent(MESSAGES.recordingKeptOnDevice);
    expect(screen.queryByRole("alert")).toBeNull();
    // Sent again (here by hand) and accepted: the note goes.
    refuse = false;
    await act(() => uploads.retry());
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(""));
  });

  it("a recording the server refuses stops retrying by itself and can be discarded", async () => {
    uploadAnswers(400);
    const user = userEvent.setup();
    renderRecorder(
      <>
        <Recorder kind="memory" />
        <PendingRecordings />
      </>,
    );
    await record(user);
    await user.click(screen.getByRole("button", { name: MESSAGES.stopRecording }));
    // The reason in the catalogue's words for the server's code (never the body's own text),
    // calmly: the recording is still kept.
    expect(await screen.findByTestId("kept-reason")).toHaveTextContent(
      ERROR_MESSAGES["audio.not_audio"],
    );
    expect(screen.getByTestId("kept-reason")).not.toHaveTextContent(/audio: the file/);
    expect(screen.getByRole("status")).toHaveTextContent(MESSAGES.recordingKeptRefused);
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(await screen.findByRole("button", { name: MESSAGES.discard }));
    await waitFor(() => expect(screen.queryByTestId("pending-recordings")).toBeNull());
    // Discarded: nothing is kept, so the reason goes too.
    await waitFor(() => expect(screen.queryByTestId("kept-reason")).toBeNull());
  });
});

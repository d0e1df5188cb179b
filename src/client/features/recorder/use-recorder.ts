import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { extensionForAudioType } from "../../../shared/audio-types";
import { AUDIO_IDEAL_SAMPLE_RATE, RECORDER_CHUNK_MS } from "../../../shared/constants";
import { ERROR_MESSAGES, isErrorCode, MESSAGES } from "../../../shared/messages";
import { toast } from "../../components/ui/use-toast";
import { ApiError } from "../../lib/api-client";
import { NoticeSequencer } from "../../lib/notice-sequencer";
import { usePendingRecordings, useUploadQueue } from "../../lib/upload-queue-context";
import {
  AUDIO_CONSTRAINTS,
  browserEnvironment,
  checkRecording,
  chooseRecordingFormat,
  microphoneError,
  RecorderError,
  recorderOptions,
} from "./recorder-support";

/**
 * idle -> acquiring (the microphone opens) -> recording -> stopping (the browser hands over the
 * last audio) -> processing (convert, keep, upload, finish) -> idle. Cancel and failures go back
 * to idle from anywhere.
 */
export type RecorderPhase = "idle" | "acquiring" | "recording" | "stopping" | "processing";

export interface RecorderState {
  phase: RecorderPhase;
  /** The microphone while recording (the visualiser draws it). */
  stream: MediaStream | null;
  /** Recording, held with Pause: nothing is recorded and the time stands still until Resume. */
  paused: boolean;
  /** The progress notice, or the calm note about a kept recording. */
  notice: string;
  /** The red box: recording itself failed. */
  error: string | null;
  /** The kept recording the note is about; the note goes once it is done or discarded. */
  kept: string | null;
  /** Why the server refused that kept recording (a recording sent again needs no reason). */
  keptReason: string | null;
}

export type RecorderEvent =
  | { type: "start" }
  | { type: "opened"; stream: MediaStream }
  | { type: "pause" }
  | { type: "resume" }
  | { type: "stop" }
  | { type: "stopped" }
  | { type: "notice"; notice: string }
  | { type: "saved" }
  | { type: "kept"; id: string; reason: string | null }
  | { type: "clear" }
  | { type: "cancelled" }
  | { type: "failed"; error: string };

export const initialRecorderState: RecorderState = {
  phase: "idle",
  stream: null,
  paused: false,
  notice: "",
  error: null,
  kept: null,
  keptReason: null,
};

/** The recorder's state machine; an event that does not fit the phase changes nothing. */
export function recorderReducer(state: RecorderState, event: RecorderEvent): RecorderState {
  switch (event.type) {
    case "start":
      return state.phase === "idle" ? { ...initialRecorderState, phase: "acquiring" } : state;
    case "opened":
      return state.phase === "acquiring"
        ? { ...state, phase: "recording", stream: event.stream }
        : state;
    case "pause":
      return state.phase === "recording" ? { ...state, paused: true } : state;
    case "resume":
      return state.phase === "recording" ? { ...state, paused: false } : state;
    case "stop":
      return state.phase === "recording" ? { ...state, phase: "stopping", paused: false } : state;
    case "stopped":
      return state.phase === "recording" || state.phase === "stopping"
        ? { ...state, phase: "processing", stream: null, paused: false }
        : state;
    case "notice":
      return { ...state, notice: event.notice };
    case "saved":
      return state.phase === "processing" ? { ...state, phase: "idle" } : state;
    case "kept":
      return { ...state, phase: "idle", kept: event.id, keptReason: event.reason };
    case "clear":
      return { ...state, error: null, kept: null, keptReason: null, notice: "" };
    case "cancelled":
      return { ...state, phase: "idle", stream: null, paused: false };
    case "failed":
      return { ...state, phase: "idle", stream: null, paused: false, error: event.error };
  }
}

interface Session {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  mimeType: string;
  recordedAt: string;
  cancelled: boolean;
}

const loadConverter = () => import("./convert-to-mp3");

/** Why the server refused a kept recording, in the product's words (shown calmly, not as an alarm). */
function refusalReason(error: unknown): string {
  if (error instanceof ApiError && isErrorCode(error.code)) return ERROR_MESSAGES[error.code];
  if (error instanceof RecorderError) return error.message;
  return MESSAGES.failedUploadAudio;
}

/**
 * What happens next to a recording kept after a failure, said once and truthfully: a network
 * failure waits for the connection; a refusal the browser cannot fix waits for the person; anything
 * else (busy, too many requests, a server error) is sent again by itself.
 */
function keptNotice(error: unknown, stuck: boolean): string {
  if (stuck) return MESSAGES.recordingKeptRefused;
  if (error instanceof TypeError) return MESSAGES.recordingKeptOnDevice;
  return MESSAGES.recordingKeptWillResend;
}

export interface UseRecorderOptions {
  kind: string;
  meta?: unknown;
  beforeStart?: () => boolean;
  onSaved?: (result: unknown) => void;
  /** The watch view names the microphone when it fails. */
  variant: "card" | "watch" | "compact";
}

/**
 * Records, checks the recording, converts it to MP3 in a worker, keeps it in the app's upload
 * queue and uploads it, then runs the finisher for `kind`. The phases live in `recorderReducer`.
 */
export function useRecorder({ kind, meta, beforeStart, onSaved, variant }: UseRecorderOptions) {
  const [state, dispatch] = useReducer(recorderReducer, initialRecorderState);
  // Every step's notice reaches the screen, in order, for a minimum time (docs/adr/0013).
  const notices = useRef<NoticeSequencer | null>(null);
  notices.current ??= new NoticeSequencer((notice) => dispatch({ type: "notice", notice }));
  const sequencer = notices.current;
  const uploads = useUploadQueue();
  const session = useRef<Session | null>(null);
  const props = useRef({ kind, meta, onSaved, beforeStart, variant });
  props.current = { kind, meta, onSaved, beforeStart, variant };

  // A kept recording that is done (a retry succeeded, or it was discarded) takes its note along.
  const pending = usePendingRecordings();
  useEffect(() => {
    if (state.kept !== null && !pending.some((item) => item.id === state.kept)) {
      sequencer.reset();
      dispatch({ type: "clear" });
    }
  }, [state.kept, pending, sequencer]);

  const fail = useCallback(
    (failure: unknown) => {
      const message = failure instanceof RecorderError ? failure.message : MESSAGES.recorderError;
      sequencer.reset();
      dispatch({ type: "failed", error: message });
      // Spec 8: the watch recorder names the microphone; every other recorder failure toasts
      // 'Recording failed' beside the inline box.
      if (
        props.current.variant === "watch" &&
        failure instanceof RecorderError &&
        failure.microphone
      ) {
        toast({
          title: MESSAGES.microphoneError,
          description: MESSAGES.microphoneErrorDescription,
          variant: "destructive",
        });
      } else {
        // The spec's title only: the reason is in the recorder's red box, not said twice.
        toast({ title: MESSAGES.recordingFailed, variant: "destructive" });
      }
    },
    [sequencer],
  );

  const finish = useCallback(
    async (current: Session) => {
      const sampleRate =
        current.stream.getAudioTracks()[0]?.getSettings().sampleRate ?? AUDIO_IDEAL_SAMPLE_RATE;
      for (const track of current.stream.getTracks()) track.stop();
      if (current.cancelled) {
        sequencer.reset();
        dispatch({ type: "cancelled" });
        return;
      }
      dispatch({ type: "stopped" });
      const type = current.recorder.mimeType || current.mimeType;
      const original = new Blob(current.chunks, { type });
      try {
        checkRecording(current.chunks, original);
      } catch (failure) {
        fail(failure);
        return;
      }

      let upload = original;
      let filename = `recording.${extensionForAudioType(type)}`;
      void sequencer.push(MESSAGES.convertingToMp3);
      try {
        const { convertToMp3 } = await loadConverter();
        upload = await convertToMp3(original, sampleRate);
        filename = "recording.mp3";
      } catch {
        // Spec 5: when conversion fails, the original recording is uploaded as it is.
      }

      let id: string;
      try {
        id = await uploads.keep({
          kind: props.current.kind,
          meta: props.current.meta,
          blob: upload,
          filename,
          recordedAt: current.recordedAt,
        });
      } catch {
        fail(new RecorderError(MESSAGES.recorderError));
        return;
      }
      try {
        const result = await uploads.process(id, sequencer.push);
        await sequencer.settled();
        sequencer.reset();
        dispatch({ type: "saved" });
        props.current.onSaved?.(result);
      } catch (failure) {
        // Kept on this device: a calm notice of what happens next, never the red error box.
        const stuck = uploads.summary(id)?.stuck ?? false;
        sequencer.reset(keptNotice(failure, stuck));
        dispatch({ type: "kept", id, reason: stuck ? refusalReason(failure) : null });
      }
    },
    [fail, sequencer, uploads],
  );

  const start = useCallback(async () => {
    if (state.phase !== "idle") return;
    sequencer.reset();
    dispatch({ type: "clear" });
    if (props.current.beforeStart && !props.current.beforeStart()) return;
    let mimeType: string;
    try {
      mimeType = chooseRecordingFormat(browserEnvironment());
    } catch (failure) {
      fail(failure);
      return;
    }
    // Start fetching the encoder (worker + WebAssembly) while the person speaks.
    void loadConverter()
      .then((module) => module.warmUpEncoder())
      .catch(() => undefined);

    dispatch({ type: "start" });
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({ audio: AUDIO_CONSTRAINTS });
    } catch (failure) {
      fail(microphoneError(failure));
      return;
    }
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(media, recorderOptions(mimeType));
    } catch {
      for (const track of media.getTracks()) track.stop();
      fail(new RecorderError(MESSAGES.recorderError));
      return;
    }
    const current: Session = {
      recorder,
      stream: media,
      chunks: [],
      mimeType,
      recordedAt: new Date().toISOString(),
      cancelled: false,
    };
    recorder.ondataavailable = (event) => {
      if (event.data && event.data.size > 0) current.chunks.push(event.data);
    };
    recorder.onstop = () => {
      if (session.current === current) session.current = null;
      void finish(current);
    };
    recorder.onerror = () => {
      current.cancelled = true;
      if (recorder.state !== "inactive") recorder.stop();
      fail(new RecorderError(MESSAGES.recorderError));
    };
    session.current = current;
    try {
      recorder.start(RECORDER_CHUNK_MS);
    } catch {
      session.current = null;
      for (const track of media.getTracks()) track.stop();
      fail(new RecorderError(MESSAGES.recorderError));
      return;
    }
    dispatch({ type: "opened", stream: media });
  }, [state.phase, fail, finish, sequencer]);

  const pause = useCallback(() => {
    const current = session.current;
    if (current?.recorder.state !== "recording") return;
    try {
      current.recorder.pause();
    } catch {
      return;
    }
    dispatch({ type: "pause" });
  }, []);

  const resume = useCallback(() => {
    const current = session.current;
    if (current?.recorder.state !== "paused") return;
    try {
      current.recorder.resume();
    } catch {
      return;
    }
    dispatch({ type: "resume" });
  }, []);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    dispatch({ type: "stop" });
    if (current.recorder.state !== "inactive") current.recorder.stop();
  }, []);

  const cancel = useCallback(() => {
    const current = session.current;
    if (!current) return;
    current.cancelled = true;
    current.chunks.length = 0;
    if (current.recorder.state !== "inactive") current.recorder.stop();
    else void finish(current);
  }, [finish]);

  // Leaving the page while recording keeps what was recorded: it is stopped and processed.
  useEffect(
    () => () => {
      const current = session.current;
      if (current && current.recorder.state !== "inactive") current.recorder.stop();
      sequencer.stop();
    },
    [sequencer],
  );

  const elapsedMs = useElapsed(state.phase, state.paused);

  return { state, elapsedMs, start, pause, resume, stop, cancel };
}

/** How often the shown time is brought up to date while it runs. */
export const ELAPSED_TICK_MS = 250;

/**
 * The time recorded so far: it runs while recording, stands still while paused, and starts from
 * 0 again when the next recording begins.
 */
function useElapsed(phase: RecorderPhase, paused: boolean): number {
  const [elapsed, setElapsed] = useState(0);
  const banked = useRef(0);
  const running = phase === "recording" && !paused;
  useEffect(() => {
    if (phase !== "acquiring") return;
    banked.current = 0;
    setElapsed(0);
  }, [phase]);
  useEffect(() => {
    if (!running) return;
    const since = Date.now();
    const timer = setInterval(
      () => setElapsed(banked.current + Date.now() - since),
      ELAPSED_TICK_MS,
    );
    return () => {
      clearInterval(timer);
      banked.current += Date.now() - since;
      setElapsed(banked.current);
    };
  }, [running]);
  return elapsed;
}

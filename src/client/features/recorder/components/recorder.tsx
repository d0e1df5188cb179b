import { Mic, Square, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { extensionForAudioType } from "../../../../shared/audio-types";
import { AUDIO_IDEAL_SAMPLE_RATE, RECORDER_CHUNK_MS } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { ApiError } from "../../../lib/api-client";
import { cn } from "../../../lib/cn";
import { NoticeSequencer } from "../notice-sequencer";
import {
  keepRecording,
  pendingSummary,
  processPending,
  usePendingRecordings,
} from "../pending-uploads";
import {
  AUDIO_CONSTRAINTS,
  browserEnvironment,
  checkRecording,
  chooseRecordingFormat,
  microphoneError,
  RecorderError,
  recorderOptions,
} from "../recorder-support";
import { AudioVisualiser } from "./audio-visualiser";

export interface RecorderProps {
  /** Which finisher runs after upload ('memory', 'comment'); see pending-uploads.ts. */
  kind: string;
  /** Passed to the finisher with the upload (e.g. the memory id and commenter name of a comment). */
  meta?: unknown;
  /** Called before recording starts; return false to stay idle (e.g. a comment without a name). */
  beforeStart?: () => boolean;
  /** Called with the finisher's result once everything after the upload is done. */
  onSaved?: (result: unknown) => void;
  variant?: "card" | "watch" | "compact";
}

type RecorderState = "idle" | "recording" | "processing";

interface Session {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  mimeType: string;
  recordedAt: string;
  cancelled: boolean;
}

const loadConverter = () => import("../convert-to-mp3");

/** What a failed upload or finishing step says in the error box. */
function processingErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? MESSAGES.failedUploadAudio;
  if (error instanceof RecorderError) return error.message;
  if (error instanceof TypeError) return MESSAGES.failedUploadAudio; // the network failed
  return error instanceof Error && error.message ? error.message : MESSAGES.recorderError;
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

/**
 * The one recorder (home card, watch view, spoken comments): records, checks the recording,
 * converts it to MP3 in a worker, keeps it in the browser and uploads it, then runs the finisher
 * registered for `kind`.
 */
export function Recorder({ kind, meta, beforeStart, onSaved, variant = "card" }: RecorderProps) {
  const [state, setState] = useState<RecorderState>("idle");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  // Every step's notice reaches the screen, in order, for a minimum time (docs/adr/0013).
  const notices = useRef<NoticeSequencer | null>(null);
  notices.current ??= new NoticeSequencer(setNotice);
  const sequencer = notices.current;
  const [stream, setStream] = useState<MediaStream | null>(null);
  const session = useRef<Session | null>(null);
  // The kept recording the error box is about: once it is done (a retry by hand or by itself
  // succeeded, or it was discarded) the box and the note go, since they are no longer true.
  const [kept, setKept] = useState<string | null>(null);
  const pending = usePendingRecordings();
  useEffect(() => {
    if (kept !== null && !pending.some((item) => item.id === kept)) {
      setKept(null);
      setError(null);
      sequencer.reset();
    }
  }, [kept, pending, sequencer]);
  const props = useRef({ kind, meta, onSaved });
  props.current = { kind, meta, onSaved };

  const fail = useCallback(
    (failure: unknown) => {
      const message = failure instanceof RecorderError ? failure.message : MESSAGES.recorderError;
      setError(message);
      sequencer.reset();
      setState("idle");
      // Spec 8: the watch recorder names the microphone; every other recorder failure toasts
      // 'Recording failed' beside the inline box.
      if (variant === "watch" && failure instanceof RecorderError && failure.microphone) {
        toast({
          title: MESSAGES.microphoneError,
          description: MESSAGES.microphoneErrorDescription,
          variant: "destructive",
        });
      } else {
        toast({ title: MESSAGES.recordingFailed, description: message, variant: "destructive" });
      }
    },
    [variant, sequencer],
  );

  const finish = useCallback(
    async (current: Session) => {
      const sampleRate =
        current.stream.getAudioTracks()[0]?.getSettings().sampleRate ?? AUDIO_IDEAL_SAMPLE_RATE;
      for (const track of current.stream.getTracks()) track.stop();
      setStream(null);
      if (current.cancelled) {
        setState("idle");
        sequencer.reset();
        return;
      }
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

      const { kind: currentKind, meta: currentMeta } = props.current;
      let id: string;
      try {
        id = await keepRecording({
          kind: currentKind,
          meta: currentMeta,
          blob: upload,
          filename,
          recordedAt: current.recordedAt,
        });
      } catch {
        fail(new RecorderError(MESSAGES.recorderError));
        return;
      }
      try {
        const result = await processPending(id, sequencer.push);
        await sequencer.settled();
        sequencer.reset();
        setState("idle");
        props.current.onSaved?.(result);
      } catch (failure) {
        setError(processingErrorMessage(failure));
        sequencer.reset(keptNotice(failure, pendingSummary(id)?.stuck ?? false));
        setKept(id);
        setState("idle");
      }
    },
    [fail, sequencer],
  );

  const start = useCallback(async () => {
    if (state !== "idle") return;
    setError(null);
    sequencer.reset();
    setKept(null);
    if (beforeStart && !beforeStart()) return;
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

    setState("processing");
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
    setStream(media);
    setState("recording");
  }, [state, beforeStart, fail, finish, sequencer]);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    setState("processing");
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

  const label =
    state === "recording"
      ? MESSAGES.stopRecording
      : state === "processing"
        ? MESSAGES.processing
        : MESSAGES.startRecording;
  const compact = variant === "compact";
  const watch = variant === "watch";

  return (
    <div
      className={cn("flex flex-col items-center gap-4", compact && "items-stretch gap-2")}
      data-testid="recorder"
      data-state={state}
    >
      {!compact && (
        <AudioVisualiser
          stream={stream}
          // Folded away it keeps a margin as tall as the status line below (min-h-5), so the idle
          // button sits in the middle of the home card.
          className={stream ? (watch ? "max-h-16" : "max-h-40") : watch ? "" : "mb-5"}
        />
      )}
      <div
        className={cn(
          "flex flex-wrap items-center justify-center gap-3",
          compact && "justify-start",
        )}
      >
        <Button
          size={watch ? "round" : compact ? "sm" : "lg"}
          variant={state === "recording" ? "destructive" : "primary"}
          onClick={state === "recording" ? stop : start}
          disabled={state === "processing"}
        >
          {state === "recording" ? (
            <Square className="h-4 w-4" aria-hidden="true" />
          ) : state === "idle" ? (
            <Mic className="h-4 w-4" aria-hidden="true" />
          ) : null}
          {label}
        </Button>
        {state === "recording" && (
          <Button size={compact ? "sm" : "md"} variant="outline" onClick={cancel}>
            <X className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.cancelRecording}
          </Button>
        )}
      </div>
      <p
        role="status"
        aria-live="polite"
        className={cn("min-h-5 text-center text-sm", watch ? "text-slate-200" : "text-slate-600")}
      >
        {notice}
      </p>
      {error && (
        <div
          role="alert"
          className="w-full rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {error}
        </div>
      )}
    </div>
  );
}

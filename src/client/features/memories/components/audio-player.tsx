import { Pause, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";

/** Play/pause for a memory's audio, beside its recorded date. */
export function AudioPlayer({ src, caption }: { src: string; caption: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const element = audio.current;
    return () => element?.pause();
  }, []);
  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) {
      element.play().catch(() => setPlaying(false));
    } else {
      element.pause();
    }
  };
  return (
    <div className="flex items-center gap-3">
      <Button
        size="icon"
        className="rounded-full"
        aria-label={playing ? "Pause" : "Play"}
        onClick={toggle}
        disabled={!src}
      >
        {playing ? (
          <Pause className="h-5 w-5" aria-hidden="true" />
        ) : (
          <Play className="h-5 w-5" aria-hidden="true" />
        )}
      </Button>
      <span className="text-sm text-slate-700">{caption}</span>
      {src ? (
        // biome-ignore lint/a11y/useMediaCaption: the transcript is shown on the page
        <audio
          ref={audio}
          src={src}
          preload="none"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
        />
      ) : null}
    </div>
  );
}

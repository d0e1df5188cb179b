import { Pause, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { pauseMemoryLabel, playMemoryLabel } from "../../../../shared/relatives";
import { Button } from "../../../components/ui/button";

/**
 * Plays a memory's recording from its list item, without opening it. The audio is fetched only
 * when Play is pressed; another recording starting on the page pauses this one.
 */
export function PlayInPlaceButton({ src, title }: { src: string; title: string }) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const name = title || MESSAGES.untitledMemory;

  useEffect(() => {
    // One voice at a time: any other audio on the page starting pauses this one.
    const onOtherPlay = (event: Event) => {
      if (event.target !== audio.current) audio.current?.pause();
    };
    document.addEventListener("play", onOtherPlay, true);
    return () => {
      document.removeEventListener("play", onOtherPlay, true);
      audio.current?.pause();
    };
  }, []);

  const toggle = () => {
    if (!audio.current) {
      const element = new Audio(src);
      element.addEventListener("play", () => setPlaying(true));
      element.addEventListener("pause", () => setPlaying(false));
      element.addEventListener("ended", () => setPlaying(false));
      audio.current = element;
    }
    if (audio.current.paused) void audio.current.play().catch(() => setPlaying(false));
    else audio.current.pause();
  };

  return (
    <Button
      variant="outline"
      size="icon"
      className="h-11 w-11 shrink-0 rounded-full"
      aria-label={playing ? pauseMemoryLabel(name) : playMemoryLabel(name)}
      aria-pressed={playing}
      onClick={toggle}
    >
      {playing ? (
        <Pause className="h-4 w-4" aria-hidden="true" />
      ) : (
        <Play className="h-4 w-4" aria-hidden="true" />
      )}
    </Button>
  );
}

import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { AudioPlayer, formatTime } from "./audio-player";

/** jsdom has no media engine: play/pause report through the element's events, as a browser does. */
beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    Object.defineProperty(this, "paused", { value: false, configurable: true });
    this.dispatchEvent(new Event("play"));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    Object.defineProperty(this, "paused", { value: true, configurable: true });
    this.dispatchEvent(new Event("pause"));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The browser has read the file's header: its real duration is known. */
function metadataLoaded(audio: HTMLAudioElement, seconds: number) {
  Object.defineProperty(audio, "duration", { value: seconds, configurable: true });
  fireEvent(audio, new Event("loadedmetadata"));
}

function audioOf(container: HTMLElement): HTMLAudioElement {
  const audio = container.querySelector("audio");
  if (!audio) throw new Error("no <audio>");
  return audio;
}

describe("formatTime", () => {
  it.each([
    [0, "0:00"],
    [5.9, "0:05"],
    [65, "1:05"],
    [600, "10:00"],
    [3725, "1:02:05"],
    [Number.NaN, "0:00"],
    [Number.POSITIVE_INFINITY, "0:00"],
    [-3, "0:00"],
  ])("%s s reads %s", (seconds, text) => {
    expect(formatTime(seconds)).toBe(text);
  });
});

describe("AudioPlayer", () => {
  it("loads only the metadata up front and shows elapsed and total time", () => {
    const { container } = render(
      <AudioPlayer src="/api/audio/a1" caption="June 1, 2024" durationHint={65} />,
    );
    const audio = audioOf(container);
    expect(audio).toHaveAttribute("preload", "metadata");
    expect(screen.getByRole("group", { name: MESSAGES.recording })).toBeInTheDocument();
    expect(screen.getByText("June 1, 2024")).toBeInTheDocument();
    expect(screen.getByTestId("player-time")).toHaveTextContent("0:00 / 1:05");
    const slider = screen.getByRole("slider", { name: MESSAGES.playbackPosition });
    expect(slider).toHaveAttribute("aria-valuetext", "0:00 of 1:05");
    // The file's own duration replaces the stored estimate.
    metadataLoaded(audio, 70);
    expect(screen.getByTestId("player-time")).toHaveTextContent("0:00 / 1:10");
    expect(slider).toHaveAttribute("max", "70");
  });

  it("plays and pauses with the button, by click or by Space and Enter", async () => {
    const user = userEvent.setup();
    render(<AudioPlayer src="/api/audio/a1" caption="June 1" />);
    await user.click(screen.getByRole("button", { name: MESSAGES.play }));
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(1);
    const pause = screen.getByRole("button", { name: MESSAGES.pause });
    expect(pause).toHaveFocus();
    await user.keyboard(" ");
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: MESSAGES.play })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("button", { name: MESSAGES.pause })).toBeInTheDocument();
  });

  it("follows playback and seeks where the bar is dragged", () => {
    const { container } = render(<AudioPlayer src="/api/audio/a1" caption="June 1" />);
    const audio = audioOf(container);
    const slider = screen.getByRole("slider", { name: MESSAGES.playbackPosition });
    // Nothing to seek in before the duration is known.
    expect(slider).toBeDisabled();
    metadataLoaded(audio, 120);
    expect(slider).toBeEnabled();
    audio.currentTime = 12;
    fireEvent(audio, new Event("timeupdate"));
    expect(slider).toHaveAttribute("aria-valuetext", "0:12 of 2:00");
    fireEvent.change(slider, { target: { value: "90" } });
    expect(audio.currentTime).toBe(90);
    expect(screen.getByTestId("player-time")).toHaveTextContent("1:30 / 2:00");
  });

  it("moves with the arrow, Page and Home/End keys, within the recording", async () => {
    const user = userEvent.setup();
    const { container } = render(<AudioPlayer src="/api/audio/a1" caption="June 1" />);
    const audio = audioOf(container);
    metadataLoaded(audio, 100);
    const slider = screen.getByRole("slider", { name: MESSAGES.playbackPosition });
    slider.focus();
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(audio.currentTime).toBe(10);
    await user.keyboard("{ArrowLeft}");
    expect(audio.currentTime).toBe(5);
    await user.keyboard("{PageUp}");
    expect(audio.currentTime).toBe(15);
    await user.keyboard("{End}");
    expect(audio.currentTime).toBe(100);
    expect(slider).toHaveAttribute("aria-valuetext", "1:40 of 1:40");
    await user.keyboard("{ArrowRight}");
    expect(audio.currentTime).toBe(100);
    await user.keyboard("{Home}{ArrowLeft}");
    expect(audio.currentTime).toBe(0);
  });

  it("right to left, the bar fills leftwards: the left arrow moves on, the right one back", async () => {
    document.documentElement.dir = "rtl";
    try {
      const user = userEvent.setup();
      const { container } = render(<AudioPlayer src="/api/audio/a1" caption="June 1" />);
      const audio = audioOf(container);
      metadataLoaded(audio, 100);
      screen.getByRole("slider", { name: MESSAGES.playbackPosition }).focus();
      await user.keyboard("{ArrowLeft}{ArrowLeft}");
      expect(audio.currentTime).toBe(10);
      await user.keyboard("{ArrowRight}");
      expect(audio.currentTime).toBe(5);
    } finally {
      document.documentElement.dir = "";
    }
  });

  it("pauses the recording that was playing when another one starts", async () => {
    const user = userEvent.setup();
    const { container } = render(
      <>
        <AudioPlayer src="/api/audio/a1" caption="First" label="First" />
        <AudioPlayer src="/api/audio/a2" caption="Second" label="Second" />
      </>,
    );
    const [first, second] = [...container.querySelectorAll("audio")];
    const groups = screen.getAllByRole("group");
    await user.click((groups[0] as HTMLElement).querySelector("button") as HTMLButtonElement);
    expect(first?.paused).toBe(false);
    await user.click((groups[1] as HTMLElement).querySelector("button") as HTMLButtonElement);
    expect(first?.paused).toBe(true);
    expect(second?.paused).toBe(false);
    expect(screen.getAllByRole("button", { name: MESSAGES.play })).toHaveLength(1);
  });

  it("offers nothing to play without audio", () => {
    const { container } = render(<AudioPlayer src="" caption="June 1" />);
    expect(container.querySelector("audio")).toBeNull();
    expect(screen.getByRole("button", { name: MESSAGES.play })).toBeDisabled();
    expect(screen.getByRole("slider", { name: MESSAGES.playbackPosition })).toBeDisabled();
  });
});

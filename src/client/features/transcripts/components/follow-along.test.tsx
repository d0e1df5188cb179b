import { act, fireEvent, render, screen } from "@testing-library/react";
import { createRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { FollowAlong, firstMatch, transcriptPieces } from "./follow-along";

const TRANSCRIPT = "We went to the sea. Grandpa swam. You built a castle.";
const SEGMENTS = [
  { start: 0, end: 2, text: "We went to the sea." },
  { start: 2, end: 3.5, text: "Grandpa swam." },
  { start: 3.5, end: 6, text: "You built a castle." },
];

/** An audio element whose clock the test moves (jsdom plays nothing). */
function fakeAudio() {
  const element = document.createElement("audio");
  let time = 0;
  let paused = true;
  Object.defineProperty(element, "currentTime", {
    get: () => time,
    set: (v: number) => (time = v),
  });
  Object.defineProperty(element, "paused", { get: () => paused });
  const play = vi.fn(async () => {
    paused = false;
  });
  element.play = play;
  const at = (seconds: number) => {
    time = seconds;
    paused = false;
    act(() => {
      element.dispatchEvent(new Event("timeupdate"));
    });
  };
  return { element, play, at };
}

describe("following the transcript while it plays", () => {
  it("keeps the transcript's exact words, cut at its timed sentences", () => {
    expect(
      transcriptPieces(TRANSCRIPT.replace("Grandpa swam.", "Grandpa swam far."), SEGMENTS).map(
        (piece) => [piece.text, piece.segment !== undefined],
      ),
    ).toEqual([
      ["We went to the sea.", true],
      [" Grandpa swam far. ", false],
      ["You built a castle.", true],
    ]);
    expect(transcriptPieces(TRANSCRIPT, []).map((p) => p.text)).toEqual([TRANSCRIPT]);
  });

  it("highlights the sentence being played and plays from a sentence tapped", () => {
    const audio = fakeAudio();
    const ref = createRef<HTMLAudioElement>();
    (ref as { current: HTMLAudioElement }).current = audio.element;
    render(<FollowAlong transcript={TRANSCRIPT} segments={SEGMENTS} audio={ref} />);
    expect(screen.getByTestId("transcript").textContent).toBe(TRANSCRIPT);
    const current = () => screen.queryByRole("button", { current: true })?.textContent;
    expect(current()).toBeUndefined();
    audio.at(0.5);
    expect(current()).toBe("We went to the sea.");
    audio.at(2.7);
    expect(current()).toBe("Grandpa swam.");

    fireEvent.click(screen.getByRole("button", { name: "You built a castle." }));
    expect(audio.element.currentTime).toBe(3.5);
    expect(audio.play).toHaveBeenCalled();
    audio.at(3.6);
    expect(current()).toBe("You built a castle.");
    expect(screen.getAllByTitle(MESSAGES.playFromHere)).toHaveLength(3);
  });

  it("opens from a search at the first sentence that matched", () => {
    expect(firstMatch(SEGMENTS, "GRANDPA castle")).toBe(1);
    expect(firstMatch(SEGMENTS, "a")).toBe(-1);
    expect(firstMatch(SEGMENTS, "boats")).toBe(-1);
    const audio = fakeAudio();
    const ref = createRef<HTMLAudioElement>();
    (ref as { current: HTMLAudioElement }).current = audio.element;
    render(<FollowAlong transcript={TRANSCRIPT} segments={SEGMENTS} audio={ref} search="castle" />);
    expect(screen.getByRole("button", { current: true }).textContent).toBe("You built a castle.");
    expect(audio.element.currentTime).toBe(3.5);
    expect(audio.play).not.toHaveBeenCalled();
  });

  describe("scrolling along with the voice", () => {
    afterEach(() => {
      // biome-ignore lint/suspicious/noExplicitAny: jsdom has no scrollIntoView; the stub goes again
      delete (Element.prototype as any).scrollIntoView;
    });

    /** The element playing (a play event), and the sentences scrolled to, in order. */
    function playing() {
      const scrolled: string[] = [];
      const scrollIntoView = vi.fn(function (this: Element) {
        scrolled.push(this.textContent ?? "");
      });
      Element.prototype.scrollIntoView = scrollIntoView;
      const audio = fakeAudio();
      const ref = createRef<HTMLAudioElement>();
      (ref as { current: HTMLAudioElement }).current = audio.element;
      render(<FollowAlong transcript={TRANSCRIPT} segments={SEGMENTS} audio={ref} />);
      const play = () =>
        act(() => {
          audio.element.dispatchEvent(new Event("play"));
        });
      play();
      return { ...audio, scrolled, scrollIntoView, play };
    }

    it("scrolls smoothly to each sentence as it begins, once", () => {
      const { at, scrolled, scrollIntoView } = playing();
      at(0.5);
      at(1);
      at(2.7);
      expect(scrolled).toEqual(["We went to the sea.", "Grandpa swam."]);
      expect(scrollIntoView).toHaveBeenLastCalledWith({ block: "center", behavior: "smooth" });
      expect(screen.queryByRole("button", { name: MESSAGES.followTheVoice })).toBeNull();
    });

    it("stops following when the reader scrolls by hand, until they ask it to follow", () => {
      const { at, scrolled } = playing();
      at(0.5);
      fireEvent.wheel(window);
      at(2.7);
      at(3.6);
      expect(scrolled).toEqual(["We went to the sea."]);
      // The page scrolls, and the highlight still moves on.
      expect(screen.getByRole("button", { current: true }).textContent).toBe("You built a castle.");

      fireEvent.click(screen.getByRole("button", { name: MESSAGES.followTheVoice }));
      expect(scrolled).toEqual(["We went to the sea.", "You built a castle."]);
      expect(screen.queryByRole("button", { name: MESSAGES.followTheVoice })).toBeNull();
    });

    it("follows again when play is pressed, and a finger or a key scrolls by hand too", () => {
      const { at, scrolled, play, element } = playing();
      at(0.5);
      fireEvent.touchMove(window);
      at(2.7);
      expect(scrolled).toEqual(["We went to the sea."]);
      act(() => {
        element.dispatchEvent(new Event("pause"));
      });
      // Paused, there is nothing to follow.
      expect(screen.queryByRole("button", { name: MESSAGES.followTheVoice })).toBeNull();
      play();
      expect(scrolled).toEqual(["We went to the sea.", "Grandpa swam."]);

      fireEvent.keyDown(document.body, { key: "PageDown" });
      at(3.6);
      expect(scrolled).toHaveLength(2);
      // Arrow keys on a control (the seek bar) move it, not the page: it keeps not following.
      fireEvent.click(screen.getByRole("button", { name: MESSAGES.followTheVoice }));
      expect(scrolled).toHaveLength(3);
      const input = document.body.appendChild(document.createElement("input"));
      fireEvent.keyDown(input, { key: "ArrowRight" });
      at(0.5);
      expect(scrolled).toEqual([
        "We went to the sea.",
        "Grandpa swam.",
        "You built a castle.",
        "We went to the sea.",
      ]);
      input.remove();
    });
  });
});

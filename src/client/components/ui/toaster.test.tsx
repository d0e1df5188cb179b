import { act, render, screen } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS } from "../../../shared/constants";
import { Toaster } from "./toaster";
import { dismissToast, toast } from "./use-toast";

afterEach(() => {
  act(() => dismissToast());
  vi.useRealTimers();
});

/** Raises a toast after the Toaster beside it has rendered but before its effects have run. */
function ToastOnMount({ title }: { title: string }) {
  useLayoutEffect(() => {
    toast({ title });
  }, [title]);
  return null;
}

describe("Toaster", () => {
  it("shows a toast raised between its render and its effects", () => {
    render(
      <>
        <Toaster />
        <ToastOnMount title="Raised while mounting" />
      </>,
    );
    expect(screen.getByText("Raised while mounting")).toBeInTheDocument();
  });

  it("shows a toast raised before it was rendered", () => {
    act(() => {
      toast({ title: "Raised while loading" });
    });
    render(<Toaster />);
    expect(screen.getByText("Raised while loading")).toBeInTheDocument();
  });

  it("shows at most one toast, the newest", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "First" });
      toast({ title: "Second", description: "details" });
    });
    expect(screen.queryByText("First")).not.toBeInTheDocument();
    expect(screen.getByText("Second")).toBeInTheDocument();
    expect(screen.getByText("details")).toBeInTheDocument();
  });

  it("uses F8 as the hotkey for the toast region", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "Hello" });
    });
    expect(screen.getByRole("region").getAttribute("aria-label")).toContain("F8");
  });

  it("closes after the default duration", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: "Bye soon" });
    });
    expect(screen.getByText("Bye soon")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS + 100);
    });
    act(() => {
      vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    });
    expect(screen.queryByText("Bye soon")).not.toBeInTheDocument();
  });
});

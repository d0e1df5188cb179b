import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { isTechnicalText } from "../../shared/rules";
import { dismissToast, toast } from "../components/ui/use-toast";
import { ApiError, errorMessage, throwIfResNotOk } from "./api-client";

afterEach(() => {
  dismissToast();
});

const failure = async (status: number, statusText: string, body: string) => {
  try {
    await throwIfResNotOk(new Response(body, { status, statusText }));
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
};

describe("what a family reads when a request fails", () => {
  it("keeps the spec's status line on the error, and shows the product's words", async () => {
    const error = await failure(500, "Internal Server Error", "");
    expect((error as ApiError).message).toBe("500: Internal Server Error");
    expect(errorMessage(error)).toBe(MESSAGES.internalError);
    // A 5xx that carries the product's words (a full disk, the database restarting) shows them.
    const full = await failure(507, "Insufficient Storage", JSON.stringify({ message: "No room" }));
    expect(errorMessage(full)).toBe("No room");
    const refused = await failure(
      400,
      "Bad Request",
      JSON.stringify({ message: "tags: Too many" }),
    );
    expect(errorMessage(refused)).toBe("Too many");
    // No body, or a proxy's HTML page: the product's words, not the status.
    expect(errorMessage(await failure(404, "Not Found", ""))).toBe(MESSAGES.internalError);
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe(MESSAGES.connectionLost);
    expect(errorMessage(new Error("Unexpected token '<', \"<html>\" is not valid JSON"))).toBe(
      MESSAGES.internalError,
    );
    for (const shown of [error, full, refused].map(errorMessage)) {
      expect(shown).not.toMatch(/^\d{3}:/);
      expect(isTechnicalText(shown)).toBe(false);
    }
  });

  it("a toast given a status line or library text reports it and shows the product's words", () => {
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    const shown = toast({
      title: MESSAGES.failedUpdateMemory,
      description: "500: Internal Server Error",
      variant: "destructive",
    });
    expect(reported).toHaveBeenCalledTimes(1);
    expect(reported.mock.calls[0]?.join(" ")).toContain("500: Internal Server Error");
    shown.dismiss();
  });

  it("an ApiError's status line never reaches a toast through errorMessage", () => {
    toast({
      title: MESSAGES.failedDeleteMemory,
      description: errorMessage(new ApiError(500, "500: x")),
    });
  });
});

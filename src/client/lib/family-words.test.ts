import { describe, expect, it } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import { type ApiError, errorMessage, ProductError, throwIfResNotOk } from "./api-client";

const failure = async (status: number, statusText: string, body: string) => {
  try {
    await throwIfResNotOk(new Response(body, { status, statusText }));
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
};

describe("what a family reads when a request fails", () => {
  it("keeps the spec's status line on the error, and shows the catalogue's words for its code", async () => {
    const error = await failure(500, "Internal Server Error", "");
    expect((error as ApiError).message).toBe("500: Internal Server Error");
    expect(errorMessage(error)).toBe(MESSAGES.internalError);
    // A 5xx that carries a code (a full disk, the database restarting) shows its words.
    const full = await failure(
      507,
      "Insufficient Storage",
      JSON.stringify({ code: "storage_full", message: "No room" }),
    );
    expect((full as ApiError).code).toBe("storage_full");
    expect(errorMessage(full)).toBe(ERROR_MESSAGES.storage_full);
    const refused = await failure(
      400,
      "Bad Request",
      JSON.stringify({ code: "memory.too_many_tags", message: "anything" }),
    );
    expect(errorMessage(refused)).toBe(ERROR_MESSAGES["memory.too_many_tags"]);
    // An unknown code, no body, or a proxy's HTML page: the fallback's words, not the status.
    const unknown = await failure(400, "Bad Request", JSON.stringify({ code: "new.thing" }));
    expect(errorMessage(unknown)).toBe(MESSAGES.internalError);
    expect(errorMessage(unknown, "processing.failed")).toBe(MESSAGES.processingFailed);
    expect(errorMessage(await failure(404, "Not Found", "<html></html>"))).toBe(
      MESSAGES.internalError,
    );
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe(MESSAGES.connectionLost);
    expect(errorMessage(new Error("Unexpected token '<', \"<html>\" is not valid JSON"))).toBe(
      MESSAGES.internalError,
    );
    // The product's own errors keep their words.
    expect(errorMessage(new ProductError(MESSAGES.noAudioData))).toBe(MESSAGES.noAudioData);
  });
});

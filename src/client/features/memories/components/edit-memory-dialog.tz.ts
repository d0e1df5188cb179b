import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createElement } from "react";
import { expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { dismissToast } from "../../../components/ui/use-toast";
import { fakeApi, json, makeMemory, renderWithApp } from "../../../test/fake-api";
import { EditMemoryDialog } from "./edit-memory-dialog";

export interface ZoneCase {
  /** The stored instant. */
  recordedAt: string;
  /** What the datetime-local field must show in this zone. */
  shown: string;
  /** What the user types instead. */
  typed: string;
  /** The instant that must be saved. */
  saved: string;
}

/** The date-time round trip of the Edit Memory dialog in the zone the test file set in TZ. */
export function dateRoundTripTests(zone: string, juneOffsetMinutes: number, cases: ZoneCase[]) {
  it(`runs in ${zone}`, () => {
    expect(new Date("2024-06-01T00:00:00Z").getTimezoneOffset()).toBe(juneOffsetMinutes);
  });

  it.each(cases)("shows $recordedAt as $shown and saves $typed as $saved", async (c) => {
    const api = fakeApi([
      ({ method, body }) =>
        method === "PUT" ? json({ ...makeMemory(), ...(body as object) }) : undefined,
    ]);
    renderWithApp(
      createElement(EditMemoryDialog, {
        memory: makeMemory({ recordedAt: c.recordedAt }),
        open: true,
        onOpenChange: () => undefined,
      }),
    );
    const user = userEvent.setup();
    const field = screen.getByLabelText("Date Recorded");
    expect(field).toHaveValue(c.shown);
    await user.clear(field);
    await user.type(field, c.typed);
    await user.click(screen.getByRole("button", { name: MESSAGES.saveChanges }));
    await screen.findByText(MESSAGES.memoryUpdated);
    const put = api.requests.find((r) => r.method === "PUT");
    expect((put?.body as { recordedAt?: string } | undefined)?.recordedAt).toBe(c.saved);
    act(() => dismissToast());
    vi.unstubAllGlobals();
  });

  it("keeps the exact instant when the date is not touched", async () => {
    const api = fakeApi([
      ({ method, body }) =>
        method === "PUT" ? json({ ...makeMemory(), ...(body as object) }) : undefined,
    ]);
    renderWithApp(
      createElement(EditMemoryDialog, {
        memory: makeMemory({ recordedAt: "2024-03-10T06:59:42.123Z" }),
        open: true,
        onOpenChange: () => undefined,
      }),
    );
    await userEvent.setup().click(screen.getByRole("button", { name: MESSAGES.saveChanges }));
    await screen.findByText(MESSAGES.memoryUpdated);
    const put = api.requests.find((r) => r.method === "PUT");
    expect((put?.body as { recordedAt?: string } | undefined)?.recordedAt).toBe(
      "2024-03-10T06:59:42.123Z",
    );
    act(() => dismissToast());
    vi.unstubAllGlobals();
  });
}

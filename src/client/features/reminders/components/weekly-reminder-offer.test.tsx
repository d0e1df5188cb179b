import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import type { ReminderSettings } from "../../../../shared/reminders";
import { browserTimeZone } from "../../../lib/browser-time-zone";
import {
  clearToasts,
  type FakeRequest,
  fakeApi,
  json,
  makeMemory,
  me,
  renderWithApp,
  userHandler,
} from "../../../test/fake-api";
import { useUser } from "../../auth/api/get-user";
import { announceMemorySaved } from "../../memories/processing/memory-saved-events";
import { useReminders } from "../api/reminders";
import { WeeklyReminderOfferAfterSave } from "./weekly-reminder-offer-after-save";

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

const NEVER_SET: ReminderSettings = {
  weekly: { enabled: false, weekday: 0, hour: 18, timeZone: "UTC" },
  specialDays: [],
  hasEmail: true,
  saved: false,
  unsubscribedAt: null,
};

function remindersServer(initial: ReminderSettings = NEVER_SET) {
  let settings = initial;
  const api = fakeApi([
    userHandler(me),
    ({ method, url, body }: FakeRequest) => {
      if (url !== "/api/reminders") return undefined;
      if (method === "PUT") {
        settings = { ...settings, ...(body as object), saved: true };
        return json(settings);
      }
      return json(settings);
    },
  ]);
  return api;
}

async function saveMemory(userId: string | null = me.id) {
  // The user is known before a memory can be saved.
  await screen.findByTestId("offer-host");
  await act(async () => announceMemorySaved(makeMemory({ user_id: userId })));
}

/**
 * The offer, with a mark once the session user is known (a memory is saved only after that), and
 * one once the offer's reminder settings arrived (this observer never asks for them itself; it is
 * told in the same render as the offer).
 */
function Host() {
  const { data: user } = useUser();
  const { data: settings } = useReminders(false);
  return (
    <div data-testid={user ? "offer-host" : undefined}>
      <WeeklyReminderOfferAfterSave />
      {settings ? <span data-testid="settings-known" /> : null}
    </div>
  );
}

const accept = () => screen.findByRole("button", { name: REMINDER_MESSAGES.weeklyOfferAccept });

describe("WeeklyReminderOfferAfterSave", () => {
  it("offers the weekly reminder after the owner's memory; one tap turns it on, and it goes", async () => {
    const api = remindersServer();
    const user = userEvent.setup();
    renderWithApp(<Host />);
    // Nothing before a memory is saved, and nothing asked.
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    await saveMemory();
    await user.click(await accept());
    expect(await screen.findByText(REMINDER_MESSAGES.weeklyOfferDone)).toBeInTheDocument();
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    expect(api.requests.filter((r) => r.method === "PUT")).toEqual([
      {
        method: "PUT",
        url: "/api/reminders",
        body: {
          weekly: { enabled: true, weekday: 0, hour: 18, timeZone: browserTimeZone() },
          specialDays: [],
        },
      },
    ]);
    // The next memory brings no second offer.
    await saveMemory();
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
  });

  it("is dismissed with Not now and never made again in this browser", async () => {
    const api = remindersServer();
    const user = userEvent.setup();
    const first = renderWithApp(<Host />);
    await saveMemory();
    await accept();
    await user.click(screen.getByRole("button", { name: REMINDER_MESSAGES.weeklyOfferDismiss }));
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    await saveMemory();
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    first.unmount();
    // Another visit to the page: not offered, not even asked about.
    const asked = api.requests.filter((r) => r.url === "/api/reminders").length;
    renderWithApp(<Host />);
    await saveMemory();
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    expect(api.requests.filter((r) => r.url === "/api/reminders")).toHaveLength(asked);
    expect(api.requests.filter((r) => r.method === "PUT")).toEqual([]);
  });

  it.each([
    [
      "reminders are on",
      { ...NEVER_SET, saved: true, weekly: { ...NEVER_SET.weekly, enabled: true } },
    ],
    ["reminders were set up and turned off", { ...NEVER_SET, saved: true }],
    ["mail cannot reach the owner", { ...NEVER_SET, hasEmail: false }],
  ])("is not made when %s", async (_, settings) => {
    remindersServer(settings);
    renderWithApp(<Host />);
    await saveMemory();
    // The settings arrived and were rendered with; the offer still stays away.
    await screen.findByTestId("settings-known");
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
  });

  it("is not made for a memory recorded without an account", async () => {
    const api = remindersServer();
    renderWithApp(<Host />);
    await saveMemory(null);
    expect(screen.queryByTestId("weekly-reminder-offer")).toBeNull();
    expect(api.requests.some((r) => r.url === "/api/reminders")).toBe(false);
  });
});

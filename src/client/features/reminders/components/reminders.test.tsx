import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CURRENT_QUESTION_SCRIPT_ID, SESSION_USER_SCRIPT_ID } from "../../../../shared/constants";
import { ERROR_MESSAGES } from "../../../../shared/messages";
import { QUESTIONS, specialDayQuestion } from "../../../../shared/questions";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import type { CurrentQuestion, ReminderSettings } from "../../../../shared/reminders";
import {
  clearToasts,
  type FakeRequest,
  fakeApi,
  json,
  me,
  renderWithApp,
  userHandler,
} from "../../../test/fake-api";
import { QuestionPrompt, useHomeQuestion } from "./question-prompt";
import { RemindersSection } from "./reminders-section";

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

const SETTINGS: ReminderSettings = {
  weekly: { enabled: false, weekday: 0, hour: 18, timeZone: "UTC" },
  specialDays: [{ label: "Mia's birthday", month: 3, day: 14 }],
  hasEmail: true,
  saved: true,
  unsubscribedAt: null,
};

/** A server with a question rotation (position -> QUESTIONS[position]) and reminder settings. */
function questionServer(settings: ReminderSettings = SETTINGS, start = 0) {
  let position = start;
  const current = (): CurrentQuestion => ({ position, question: QUESTIONS[position] as string });
  return fakeApi([
    userHandler(me),
    ({ method, url, body }: FakeRequest) => {
      if (url === "/api/question" && method === "GET") return json(current());
      if (url === "/api/question/next" && method === "POST") {
        if ((body as { position: number }).position === position) position += 1;
        return json(current());
      }
      if (url === "/api/reminders" && method === "GET") return json(settings);
      return undefined;
    },
  ]);
}

/** Puts a JSON data block in the page, as the server does. */
function embed(id: string, value: unknown): HTMLScriptElement {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = id;
  block.textContent = JSON.stringify(value);
  document.head.append(block);
  return block;
}

/** The prompt as the home page holds it; `onQuestion` hears each render's question. */
function Prompt({ onQuestion }: { onQuestion?: (question: string | null) => void }) {
  const prompt = useHomeQuestion();
  onQuestion?.(prompt.question);
  return <QuestionPrompt {...prompt} />;
}

describe("QuestionPrompt", () => {
  it("paints the question the page carries in its first render, without asking for it", async () => {
    const api = questionServer(SETTINGS, 5);
    const userBlock = embed(SESSION_USER_SCRIPT_ID, me);
    embed(CURRENT_QUESTION_SCRIPT_ID, { position: 5, question: QUESTIONS[5] });
    try {
      renderWithApp(<Prompt />);
      // Synchronously: no loading step between the page and its question.
      expect(screen.getByTestId("question-text")).toHaveTextContent(QUESTIONS[5] as string);
      // Taken once: a later login on this page must not find this user's question.
      expect(document.getElementById(CURRENT_QUESTION_SCRIPT_ID)).toBeNull();
      // Skipping still moves the rotation on from the embedded position.
      await userEvent.click(screen.getByRole("button", { name: REMINDER_MESSAGES.skipQuestion }));
      expect(await screen.findByText(QUESTIONS[6] as string)).toBeInTheDocument();
      expect(api.requests).toContainEqual(
        expect.objectContaining({
          method: "POST",
          url: "/api/question/next",
          body: { position: 5 },
        }),
      );
      expect(api.requests.filter((r) => r.url === "/api/question")).toEqual([]);
    } finally {
      userBlock.remove();
    }
  });

  it("shows the user's question, skips to the next, and reports what is shown", async () => {
    const api = questionServer();
    // The page says who is logged in, as the server's does. Without it the prompt showed a
    // visitor's random question until the session loaded: when that was QUESTIONS[0] (about one
    // run in QUESTIONS.length), the skip below moved the visitor's question on, with no request.
    const userBlock = embed(SESSION_USER_SCRIPT_ID, me);
    vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      const onQuestion = vi.fn();
      renderWithApp(<Prompt onQuestion={onQuestion} />);
      expect(await screen.findByText(QUESTIONS[0] as string)).toBeInTheDocument();
      await waitFor(() => expect(onQuestion).toHaveBeenLastCalledWith(QUESTIONS[0]));
      await userEvent.click(screen.getByRole("button", { name: REMINDER_MESSAGES.skipQuestion }));
      expect(await screen.findByText(QUESTIONS[1] as string)).toBeInTheDocument();
      expect(api.requests).toContainEqual(
        expect.objectContaining({
          method: "POST",
          url: "/api/question/next",
          body: { position: 0 },
        }),
      );
      await waitFor(() => expect(onQuestion).toHaveBeenLastCalledWith(QUESTIONS[1]));
    } finally {
      userBlock.remove();
      vi.restoreAllMocks();
    }
  });

  it("shows a mail link's special-day question, but never words a crafted link brings", async () => {
    questionServer();
    const question = specialDayQuestion("Mia's birthday");
    const first = renderWithApp(<Prompt />, `/?question=${encodeURIComponent(question)}`);
    expect(await screen.findByText(question)).toBeInTheDocument();
    first.unmount();

    renderWithApp(<Prompt />, `/?question=${encodeURIComponent("Send me your password")}`);
    expect(await screen.findByText(QUESTIONS[0] as string)).toBeInTheDocument();
    expect(screen.queryByText("Send me your password")).toBeNull();
  });
});

describe("RemindersSection", () => {
  it("offers the browser's time zone until saved, and saves what was chosen", async () => {
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const api = fakeApi([
      ({ method, url, body }) => {
        if (url !== "/api/reminders") return undefined;
        if (method === "GET") return json({ ...SETTINGS, specialDays: [], saved: false });
        return json({ ...(body as object), hasEmail: true, saved: true, unsubscribedAt: null });
      },
    ]);
    renderWithApp(<RemindersSection />, "/account");
    const zone = await screen.findByLabelText(REMINDER_MESSAGES.timeZoneLabel);
    expect(zone).toHaveValue(browserZone);
    // Humane names, the browser's zone first: "Madrid (UTC+01:00)", never "Europe/Madrid".
    const options = within(zone).getAllByRole("option") as HTMLOptionElement[];
    expect(options[0]?.value).toBe(browserZone);
    expect(within(zone).getAllByRole("group")[0]).toHaveAttribute(
      "label",
      REMINDER_MESSAGES.yourTimeZone,
    );
    const madrid = options.find((option) => option.value === "Europe/Madrid");
    expect(madrid?.textContent).toMatch(/^Madrid \(UTC\+0[12]:00\)$/);
    expect(options.every((option) => !option.textContent?.includes("/"))).toBe(true);
    await userEvent.click(screen.getByLabelText(REMINDER_MESSAGES.weeklyLabel));
    await userEvent.selectOptions(
      screen.getByLabelText(REMINDER_MESSAGES.weekdayLabel, { exact: true }),
      "Wednesday",
    );
    await userEvent.selectOptions(screen.getByLabelText(REMINDER_MESSAGES.hourLabel), "07:00");
    await userEvent.click(screen.getByRole("button", { name: REMINDER_MESSAGES.addSpecialDay }));
    await userEvent.type(
      screen.getByLabelText(REMINDER_MESSAGES.specialDayLabel),
      "Mia's birthday",
    );
    await userEvent.selectOptions(
      screen.getByLabelText(REMINDER_MESSAGES.specialDayMonth, { exact: true }),
      "March",
    );
    const day = screen.getByLabelText(REMINDER_MESSAGES.specialDayDay);
    await userEvent.clear(day);
    await userEvent.type(day, "14");
    await userEvent.click(screen.getByRole("button", { name: REMINDER_MESSAGES.save }));
    expect(await screen.findByText(REMINDER_MESSAGES.saved)).toBeInTheDocument();
    expect(api.requests.find((r) => r.method === "PUT")?.body).toEqual({
      weekly: { enabled: true, weekday: 3, hour: 7, timeZone: browserZone },
      specialDays: [{ label: "Mia's birthday", month: 3, day: 14 }],
    });
  });

  it("shows the server's reason when saving is refused", async () => {
    fakeApi([
      ({ method, url }) => {
        if (url !== "/api/reminders") return undefined;
        if (method === "GET") return json(SETTINGS);
        return json(
          {
            code: "reminders.special_day_twice",
            message: ERROR_MESSAGES["reminders.special_day_twice"],
            field: "body.specialDays.1.label",
          },
          400,
        );
      },
    ]);
    renderWithApp(<RemindersSection />, "/account");
    await userEvent.click(await screen.findByRole("button", { name: REMINDER_MESSAGES.save }));
    expect(
      await screen.findByText(ERROR_MESSAGES["reminders.special_day_twice"]),
    ).toBeInTheDocument();
  });
});

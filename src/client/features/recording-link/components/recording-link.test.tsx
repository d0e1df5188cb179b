import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../../shared/i18n/format";
import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import { PHOTO_MESSAGES } from "../../../../shared/photos";
import type { LinkStory, RecordingPage } from "../../../../shared/schemas";
import { RecordingLinkPage } from "../../../app/routes/recording-link-page";
import { clearToasts, fakeApi, renderWithApp, stubDownloadLinks } from "../../../test/fake-api";
import { finishLinkRecording } from "../api/link-finisher";
import { RecordingLinkActions } from "./recording-link-actions";

const reloaded = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../lib/language", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../lib/language")>()),
  reloadPage: () => {
    reloaded.count += 1;
  },
}));

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TOKEN = "t".repeat(43);
const QUESTION = "What is your earliest memory?";
const story = (overrides: Partial<LinkStory> = {}): LinkStory => ({
  id: "s1",
  title: "The orchard in spring",
  status: "saved",
  stage: null,
  error: null,
  recordedAt: "2026-11-20T10:00:00.000Z",
  duration: 42,
  question: null,
  audioUrl: `/api/record/${TOKEN}/memories/s1/audio`,
  newReplies: 0,
  photoCount: 0,
  ...overrides,
});
const pageData = (items: LinkStory[] = [story()]): RecordingPage => ({
  journalName: "The Alvarez family",
  name: "Grandpa Tomás",
  language: "en",
  question: QUESTION,
  askedBy: null,
  questionMail: null,
  stories: { items, total: items.length, page: 1, pageSize: 15 },
});

describe("the recording link's page", () => {
  it("greets the storyteller with the week's question, one button and their own stories", async () => {
    fakeApi({ [`GET /api/record/${TOKEN}`]: { body: pageData() } });
    renderWithApp(<RecordingLinkPage token={TOKEN} />, `/r/${TOKEN}`);
    expect(
      await screen.findByRole("heading", {
        name: formatMessage(RECORDING_LINK_MESSAGES.hello, { name: "Grandpa Tomás" }),
      }),
    ).toBeInTheDocument();
    expect(screen.getByText("The Alvarez family")).toBeInTheDocument();
    expect(screen.getByTestId("link-question")).toHaveTextContent(QUESTION);
    const record = within(screen.getByTestId("record-card")).getAllByRole("button");
    // One large record button, and the photo a story may start from.
    expect(record.map((b) => b.textContent)).toEqual([
      PHOTO_MESSAGES.startFromPhoto,
      RECORDING_LINK_MESSAGES.record,
    ]);
    expect(screen.getByRole("heading", { name: "The orchard in spring" })).toBeInTheDocument();
    expect(document.querySelector("audio")?.getAttribute("src")).toBe(story().audioUrl);
    // Nothing else of the app: no top bar, no menu, no log in.
    expect(screen.queryByRole("button", { name: MESSAGES.userMenu })).toBeNull();
    expect(document.title).toContain(
      formatMessage(RECORDING_LINK_MESSAGES.hello, { name: "Grandpa Tomás" }),
    );
  });

  it("marks a story with new replies, plays them, and tells the server they were heard", async () => {
    let heard = false;
    const replies = `/api/record/${TOKEN}/memories/s1/replies`;
    const { requests } = fakeApi({
      [`GET /api/record/${TOKEN}`]: () => ({
        body: pageData([story({ newReplies: heard ? 0 : 2 })]),
      }),
      [`GET ${replies}`]: {
        body: [
          {
            id: "c1",
            commenterName: "Lucas",
            transcript: "",
            createdAt: "2026-11-21T10:00:00.000Z",
            audioUrl: `${replies}/c1/audio`,
          },
        ],
      },
      [`POST ${replies}/seen`]: () => {
        heard = true;
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithApp(<RecordingLinkPage token={TOKEN} />, `/r/${TOKEN}`);
    const mark = formatMessage(RECORDING_LINK_MESSAGES.newReplies, { count: 2 });
    expect(await screen.findByText(mark)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.hearReplies }));
    const by = formatMessage(RECORDING_LINK_MESSAGES.replyBy, { name: "Lucas" });
    expect(await screen.findByText(by)).toBeInTheDocument();
    expect(document.querySelector(`audio[src="${replies}/c1/audio"]`)).not.toBeNull();
    await waitFor(() => expect(screen.queryByText(mark)).toBeNull());
    expect(requests.some((r) => r.method === "POST" && r.url === `${replies}/seen`)).toBe(true);
  });

  it("speaks the storyteller's language, which they change on the page, and reloads in it", async () => {
    const api = fakeApi({
      [`GET /api/record/${TOKEN}`]: { body: pageData() },
      [`PUT /api/record/${TOKEN}/language`]: { body: { ok: true } },
    });
    const user = userEvent.setup();
    renderWithApp(<RecordingLinkPage token={TOKEN} />, `/r/${TOKEN}`);
    const select = await screen.findByRole("combobox", { name: MESSAGES.language });
    expect(select).toHaveValue("en");
    expect(within(select).getByRole("option", { name: "Français" })).toHaveAttribute("lang", "fr");
    const before = reloaded.count;
    await user.selectOptions(select, "fr");
    await waitFor(() => expect(reloaded.count).toBe(before + 1));
    expect(api.requests.find((r) => r.method === "PUT")).toMatchObject({
      url: `/api/record/${TOKEN}/language`,
      body: { language: "fr" },
    });
  });

  it("says where the stories will be before there are any", async () => {
    fakeApi({ [`GET /api/record/${TOKEN}`]: { body: pageData([]) } });
    renderWithApp(<RecordingLinkPage token={TOKEN} />, `/r/${TOKEN}`);
    expect(await screen.findByText(RECORDING_LINK_MESSAGES.noStories)).toBeInTheDocument();
  });

  it("shows the app's 404 for a dead link", async () => {
    fakeApi({
      [`GET /api/record/${TOKEN}`]: {
        status: 404,
        body: { code: "recording_link.invalid", message: "gone" },
      },
    });
    renderWithApp(<RecordingLinkPage token={TOKEN} />, `/r/${TOKEN}`);
    expect(await screen.findByTestId("not-found")).toBeInTheDocument();
    expect(screen.queryByText(QUESTION)).toBeNull();
  });
});

describe("a recording made through the link", () => {
  it("is made through the link with its question, then followed until it is saved", async () => {
    let polls = 0;
    const { requests } = fakeApi({
      [`POST /api/record/${TOKEN}/memories`]: {
        status: 201,
        body: story({ status: "processing", stage: "transcribe", title: "" }),
      },
      [`GET /api/record/${TOKEN}/memories/s1`]: () => {
        polls++;
        return {
          body: polls < 2 ? story({ status: "processing", stage: "tag", title: "" }) : story(),
        };
      },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const notices: string[] = [];
    const result = finishLinkRecording(
      {
        url: "/api/audio/a1",
        id: "a1",
        recordedAt: "2026-11-28T10:00:00.000Z",
        meta: { token: TOKEN, question: QUESTION },
      },
      (notice) => {
        notices.push(notice);
      },
    );
    await vi.runAllTimersAsync();
    await expect(result).resolves.toMatchObject({
      status: "saved",
      title: "The orchard in spring",
    });
    vi.useRealTimers();
    expect(requests[0]).toMatchObject({
      method: "POST",
      url: `/api/record/${TOKEN}/memories`,
      body: {
        audioUrl: "/api/audio/a1",
        recordedAt: "2026-11-28T10:00:00.000Z",
        question: QUESTION,
      },
    });
    expect(notices.at(-1)).toBe(MESSAGES.saving);
  });

  it("adds the photo it was started from once, not again when the recording is sent again", async () => {
    const photoPath = `/api/record/${TOKEN}/memories/s1/photos`;
    let photos = 0;
    const { requests } = fakeApi({
      [`POST /api/record/${TOKEN}/memories`]: () => ({
        status: photos === 0 ? 201 : 200,
        body: story({ photoCount: photos }),
      }),
      [`POST ${photoPath}`]: () => {
        photos += 1;
        return {
          status: 201,
          body: { id: `p${photos}`, url: `${photoPath}/p${photos}`, width: 400, height: 300 },
        };
      },
    });
    const upload = {
      url: "/api/audio/a1",
      id: "a1",
      recordedAt: "2026-11-28T10:00:00.000Z",
      meta: { token: TOKEN, question: null, photo: new Blob(["jpeg"], { type: "image/jpeg" }) },
    };
    await finishLinkRecording(upload, () => {});
    await finishLinkRecording(upload, () => {});
    expect(requests.filter((r) => r.method === "POST" && r.url === photoPath)).toHaveLength(1);
    expect(photos).toBe(1);
  });
});

describe("RecordingLinkActions", () => {
  const base = `/api/journals/j1/members/m1`;

  it("makes a link and shows its address once", async () => {
    const user = userEvent.setup();
    const url = `https://journal.example.org/r/${TOKEN}`;
    const { requests } = fakeApi({
      [`POST ${base}/recording-link`]: { status: 201, body: { url } },
    });
    const onChanged = vi.fn();
    renderWithApp(
      <RecordingLinkActions
        journalId="j1"
        member={{ id: "m1", name: "Grandpa Tomás", hasRecordingLink: false }}
        onChanged={onChanged}
      />,
    );
    expect(screen.queryByRole("button", { name: RECORDING_LINK_MESSAGES.stop })).toBeNull();
    expect(screen.getByText(RECORDING_LINK_MESSAGES.cardNote)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.make }));
    expect(await screen.findByDisplayValue(url)).toBeInTheDocument();
    expect(
      screen.getByText(formatMessage(RECORDING_LINK_MESSAGES.made, { name: "Grandpa Tomás" })),
    ).toBeInTheDocument();
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${base}/recording-link`]);
    expect(onChanged).toHaveBeenCalled();
  });

  it("shows the current link again to copy", async () => {
    const user = userEvent.setup();
    const url = `https://journal.example.org/r/${TOKEN}`;
    const { requests } = fakeApi({
      [`GET ${base}/recording-link`]: { status: 200, body: { url } },
    });
    renderWithApp(
      <RecordingLinkActions
        journalId="j1"
        member={{ id: "m1", name: "Grandpa Tomás", hasRecordingLink: true }}
      />,
    );
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.showLink }));
    expect(await screen.findByDisplayValue(url)).toBeInTheDocument();
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${base}/recording-link`]);
  });

  it("prints the card of the current link as a PDF file (a GET: the link stays)", async () => {
    const user = userEvent.setup();
    const clicked = stubDownloadLinks();
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: () => "blob:card", revokeObjectURL: () => {} }),
    );
    fakeApi([
      ({ method, url }) =>
        method === "GET" && url === `${base}/card.pdf`
          ? new Response(new Uint8Array([37, 80, 68, 70]), {
              status: 200,
              headers: { "content-type": "application/pdf" },
            })
          : undefined,
    ]);
    renderWithApp(
      <RecordingLinkActions
        journalId="j1"
        member={{ id: "m1", name: "Grandpa Tomás", hasRecordingLink: true }}
      />,
    );
    // With a live link, the page says a new link ends it.
    expect(screen.getByText(new RegExp(RECORDING_LINK_MESSAGES.makeNote))).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.printCard }));
    expect(
      await screen.findByText(
        formatMessage(RECORDING_LINK_MESSAGES.cardReady, { name: "Grandpa Tomás" }),
      ),
    ).toBeInTheDocument();
    expect(clicked).toEqual([{ href: "blob:card", download: "recording-card-Grandpa-Tomás.pdf" }]);
  });

  it("stops a link after asking", async () => {
    const user = userEvent.setup();
    const { requests } = fakeApi({ [`DELETE ${base}/recording-link`]: { status: 204 } });
    renderWithApp(
      <RecordingLinkActions
        journalId="j1"
        member={{ id: "m1", name: "Grandpa Tomás", hasRecordingLink: true }}
      />,
    );
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.stop }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent(
      formatMessage(RECORDING_LINK_MESSAGES.stopConfirm, { name: "Grandpa Tomás" }),
    );
    expect(requests).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: RECORDING_LINK_MESSAGES.stop }));
    expect(
      await screen.findByText(
        formatMessage(RECORDING_LINK_MESSAGES.stopped, { name: "Grandpa Tomás" }),
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`DELETE ${base}/recording-link`]);
  });

  it("says why when the server refuses", async () => {
    const user = userEvent.setup();
    fakeApi({
      [`POST ${base}/recording-link`]: {
        status: 409,
        body: { code: "recording_link.not_a_storyteller", message: "x" },
      },
    });
    renderWithApp(<RecordingLinkActions journalId="j1" member={{ id: "m1", name: "Luis" }} />);
    await user.click(screen.getByRole("button", { name: RECORDING_LINK_MESSAGES.make }));
    expect(
      await screen.findByText("Only an organizer or a storyteller can have a recording link"),
    ).toBeInTheDocument();
  });
});

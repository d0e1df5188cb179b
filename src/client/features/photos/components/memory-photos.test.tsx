import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PHOTO_MESSAGES } from "../../../../shared/photos";
import type { Memory, Photo } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  fakeApi,
  json,
  makeMemory,
  me,
  renderWithApp,
  someoneElses,
  userHandler,
} from "../../../test/fake-api";
import { MemoryPage } from "../../memories/components/memory-page";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

const photo = (id: string): Photo => ({ id, url: `/api/photos/${id}`, width: 1600, height: 1200 });

function setup(options: { owner?: boolean; photos?: Photo[] } = {}) {
  let memory: Memory = makeMemory({
    ...(options.owner === false ? someoneElses : {}),
    photos: options.photos ?? [photo("p1"), photo("p2")],
  });
  const uploads: FormData[] = [];
  const api = fakeApi([
    userHandler(me),
    ({ url }) => (url === `/api/memories/${memory.id}/comments` ? json([]) : undefined),
    ({ method, url }) =>
      method === "GET" && url === `/api/memories/${memory.id}` ? json(memory) : undefined,
    ({ method, url, body }) => {
      if (url !== `/api/memories/${memory.id}/photos`) return undefined;
      if (method === "PUT") {
        const ids = (body as { ids: string[] }).ids;
        memory = { ...memory, photos: ids.map(photo) };
        return json({ photos: memory.photos });
      }
      return undefined;
    },
    ({ method, url }) => {
      const match = url.match(/\/photos\/([^/]+)$/);
      if (method !== "DELETE" || !match) return undefined;
      memory = { ...memory, photos: memory.photos.filter((p) => p.id !== match[1]) };
      return json({ ok: true });
    },
  ]);
  // The upload's body is FormData, which the shared fake does not read: recorded here.
  const fetchWithForms = vi.mocked(fetch);
  const original = fetchWithForms.getMockImplementation();
  fetchWithForms.mockImplementation(async (input, init) => {
    if (init?.method === "POST" && init.body instanceof FormData) {
      uploads.push(init.body);
      memory = { ...memory, photos: [...memory.photos, photo(`p${memory.photos.length + 1}`)] };
      return json(memory.photos.at(-1), 201);
    }
    return original ? original(input, init) : json({}, 404);
  });
  vi.stubGlobal("scrollTo", vi.fn());
  renderWithApp(<MemoryPage id={memory.id} />, `/memory/${memory.id}`);
  return { api, uploads, user: userEvent.setup() };
}

describe("Photos on the memory page", () => {
  it("shows the gallery with sizes to choose from, and a photo full screen with next and previous", async () => {
    const { user } = setup({ owner: false });
    const gallery = await screen.findByRole("list", { name: PHOTO_MESSAGES.sectionTitle });
    // Decorative inside their buttons (each button names its photo), so no img role: by tag.
    const images = gallery.querySelectorAll("img");
    expect(images).toHaveLength(2);
    expect(images[0]).toHaveAttribute(
      "srcset",
      expect.stringContaining("/api/photos/p1?size=thumb 320w"),
    );
    expect(images[0]).toHaveAttribute("srcset", expect.stringContaining("?size=medium 1600w"));
    // Others see the photos and change nothing.
    expect(screen.queryByRole("button", { name: PHOTO_MESSAGES.add })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: PHOTO_MESSAGES.arrange })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Photo 1 of 2" }));
    const viewer = await screen.findByRole("dialog", { name: "Photo 1 of 2" });
    expect(within(viewer).getByRole("img")).toHaveAttribute("src", "/api/photos/p1?size=full");
    await user.click(within(viewer).getByRole("button", { name: PHOTO_MESSAGES.next }));
    expect(await screen.findByRole("dialog", { name: "Photo 2 of 2" })).toBeInTheDocument();
    await user.keyboard("{ArrowRight}");
    expect(await screen.findByRole("dialog", { name: "Photo 1 of 2" })).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("shows nothing to others when a memory has no photos", async () => {
    setup({ owner: false, photos: [] });
    await screen.findByRole("heading", { name: "Our day at the beach" });
    expect(
      screen.queryByRole("heading", { name: PHOTO_MESSAGES.sectionTitle }),
    ).not.toBeInTheDocument();
  });

  it("lets the owner add photos, make one the cover and remove one", async () => {
    const { user, uploads, api } = setup();
    await screen.findByRole("list", { name: PHOTO_MESSAGES.sectionTitle });
    await user.click(screen.getByRole("button", { name: PHOTO_MESSAGES.arrange }));
    const arrange = await screen.findByRole("dialog", { name: PHOTO_MESSAGES.arrange });
    await user.click(within(arrange).getByRole("button", { name: "Make cover: Photo 2 of 2" }));
    await waitFor(() =>
      expect(api.requests).toContainEqual({
        method: "PUT",
        url: "/api/memories/m1/photos",
        body: { ids: ["p2", "p1"] },
      }),
    );
    await waitFor(() =>
      expect(within(arrange).getByRole("img", { name: "Photo 1 of 2" })).toHaveAttribute(
        "src",
        "/api/photos/p2?size=thumb",
      ),
    );
    await user.keyboard("{Escape}");
    await waitFor(() =>
      expect(
        screen.getByRole("button", { name: "Photo 1 of 2" }).querySelector("img"),
      ).toHaveAttribute("src", "/api/photos/p2?size=medium"),
    );

    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], "boat.jpg", { type: "image/jpeg" });
    await user.upload(screen.getByTestId("photo-input"), [file]);
    expect(await screen.findByText(PHOTO_MESSAGES.added)).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.get("photo")).toBeInstanceOf(File);
    expect(await screen.findByRole("button", { name: "Photo 3 of 3" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: PHOTO_MESSAGES.arrange }));
    const again = await screen.findByRole("dialog", { name: PHOTO_MESSAGES.arrange });
    await user.click(within(again).getByRole("button", { name: "Remove photo: Photo 1 of 3" }));
    expect(await screen.findByText(PHOTO_MESSAGES.removed)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: "Photo 3 of 3" })).not.toBeInTheDocument(),
    );
  });
});

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { dismissToast } from "../../../components/ui/use-toast";
import { fakeApi, json, makeMemory, renderWithApp } from "../../../test/fake-api";
import { EditMemoryDialog } from "./edit-memory-dialog";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

function setup(
  tags: string[],
  respond = (body: unknown) => json({ ...makeMemory(), ...(body as object) }),
) {
  const api = fakeApi([
    ({ method, url, body }) =>
      method === "PUT" && url === "/api/memories/m1" ? respond(body) : undefined,
  ]);
  const onOpenChange = vi.fn();
  renderWithApp(
    <EditMemoryDialog memory={makeMemory({ tags })} open onOpenChange={onOpenChange} />,
  );
  return { api, onOpenChange, user: userEvent.setup() };
}

describe("Edit Memory dialog", () => {
  it("shows the fields, Cancel, a close icon and Save Changes", async () => {
    const { onOpenChange, user } = setup(["beach"]);
    const dialog = screen.getByRole("dialog", { name: MESSAGES.editMemory });
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Our day at the beach");
    expect(within(dialog).getByLabelText("Transcript")).toHaveValue("We built castles.");
    expect(within(dialog).getByLabelText("Summary")).toHaveValue("My darling, we built castles.");
    expect(within(dialog).getByLabelText("Date Recorded")).toHaveAttribute(
      "type",
      "datetime-local",
    );
    expect(within(dialog).getByRole("button", { name: MESSAGES.saveChanges })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Close" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: MESSAGES.cancel }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("adds a trimmed tag on Enter without submitting the form", async () => {
    const { api, user } = setup(["beach"]);
    const input = screen.getByLabelText("New tag");
    await user.type(input, "  sand castles  {Enter}");
    expect(screen.getByText("sand castles")).toBeInTheDocument();
    expect(input).toHaveValue("");
    expect(screen.getByText("2/5 tags used")).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "PUT")).toEqual([]);
  });

  it("disables the add button while the input is empty or blank", async () => {
    const { user } = setup([]);
    const add = screen.getByRole("button", { name: "Add tag" });
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText("New tag"), "   ");
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText("New tag"), "x");
    expect(add).toBeEnabled();
    await user.click(add);
    expect(screen.getByText("1/5 tags used")).toBeInTheDocument();
  });

  it("refuses an exact duplicate with the destructive 'Duplicate tag' toast, but not a case variant", async () => {
    const { user } = setup(["beach"]);
    await user.type(screen.getByLabelText("New tag"), " beach {Enter}");
    expect(await screen.findByText(MESSAGES.duplicateTag)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.duplicateTagDescription)).toBeInTheDocument();
    expect(screen.getByText("1/5 tags used")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("New tag"));
    await user.type(screen.getByLabelText("New tag"), "Beach{Enter}");
    expect(screen.getByText("2/5 tags used")).toBeInTheDocument();
  });

  it("disables the tag input and add button at 5 tags, and removing one enables them", async () => {
    const { user } = setup(["a", "b", "c", "d"]);
    await user.type(screen.getByLabelText("New tag"), "e{Enter}");
    expect(screen.getByText("5/5 tags used")).toBeInTheDocument();
    expect(screen.getByLabelText("New tag")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Add tag" })).toBeDisabled();
    // The disabled input says why, in the spec's words.
    expect(screen.getByLabelText("New tag")).toHaveAccessibleDescription(
      MESSAGES.maxTagsReachedDescription,
    );
    await user.click(screen.getByRole("button", { name: "Remove tag c" }));
    expect(screen.getByText("4/5 tags used")).toBeInTheDocument();
    expect(screen.getByLabelText("New tag")).toBeEnabled();
    expect(screen.queryByText(MESSAGES.maxTagsReachedDescription)).not.toBeInTheDocument();
  });

  it("saves the full memory and says 'Memory updated!'", async () => {
    const { api, onOpenChange, user } = setup(["beach"]);
    const title = screen.getByLabelText("Title");
    await user.clear(title);
    await user.type(title, "A new title");
    await user.type(screen.getByLabelText("New tag"), "sun{Enter}");
    await user.click(screen.getByRole("button", { name: MESSAGES.saveChanges }));
    expect(await screen.findByText(MESSAGES.memoryUpdated)).toBeInTheDocument();
    const put = api.requests.find((r) => r.method === "PUT");
    expect(put?.body).toEqual({
      title: "A new title",
      transcript: "We built castles.",
      summary: "My darling, we built castles.",
      recordedAt: "2024-06-01T12:30:00.000Z",
      tags: ["beach", "sun"],
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it("shows 'Failed to update memory' with the server's message and stays open", async () => {
    const { onOpenChange, user } = setup(["beach"], () =>
      json(
        {
          code: "memory.too_many_tags",
          message: "tags: You can only have up to 5 tags per memory.",
        },
        400,
      ),
    );
    await user.click(screen.getByRole("button", { name: MESSAGES.saveChanges }));
    expect(await screen.findByText(MESSAGES.failedUpdateMemory)).toBeInTheDocument();
    expect(screen.getByText("You can only have up to 5 tags per memory.")).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

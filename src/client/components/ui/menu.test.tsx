import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Menu, MenuButton, MenuContent, MenuItem, MenuLabel, MenuSeparator } from "./menu";

function renderMenu(chosen: string[] = []) {
  render(
    <>
      <Menu>
        <MenuButton aria-label="Choices">Choices</MenuButton>
        <MenuContent>
          <MenuLabel>Pick one</MenuLabel>
          <MenuSeparator />
          <MenuItem onSelect={() => chosen.push("first")}>First</MenuItem>
          <MenuItem onSelect={() => chosen.push("busy")} disabled>
            Busy
          </MenuItem>
          <MenuItem onSelect={() => chosen.push("last")}>Last</MenuItem>
        </MenuContent>
      </Menu>
      <button type="button">Elsewhere</button>
    </>,
  );
  return { button: screen.getByRole("button", { name: "Choices" }), chosen };
}

const item = (name: string) => screen.getByRole("menuitem", { name });

describe("Menu", () => {
  it("opens under its button with the first item focused, and says so to assistive technology", async () => {
    const { button } = renderMenu();
    expect(button).toHaveAttribute("aria-haspopup", "menu");
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("menu")).toBeNull();
    await userEvent.click(button);
    const menu = screen.getByRole("menu", { name: "Choices" });
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(button).toHaveAttribute("aria-controls", menu.id);
    expect(item("First")).toHaveFocus();
    expect(menu).toHaveTextContent("Pick one");
  });

  it("moves with the arrow keys, Home and End, past a disabled item, and wraps", async () => {
    const user = userEvent.setup();
    const { button } = renderMenu();
    button.focus();
    await user.keyboard("{ArrowDown}");
    expect(item("First")).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(item("Last")).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(item("First")).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(item("Last")).toHaveFocus();
    await user.keyboard("{Home}");
    expect(item("First")).toHaveFocus();
    await user.keyboard("{End}");
    expect(item("Last")).toHaveFocus();
  });

  it("opens on the last item with ArrowUp", async () => {
    const user = userEvent.setup();
    const { button } = renderMenu();
    button.focus();
    await user.keyboard("{ArrowUp}");
    expect(item("Last")).toHaveFocus();
  });

  it("runs an item chosen with Enter, closes and gives the focus back to its button", async () => {
    const user = userEvent.setup();
    const { button, chosen } = renderMenu();
    button.focus();
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(chosen).toEqual(["last"]);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button).toHaveFocus();
  });

  it("does not run a disabled item", async () => {
    const { button, chosen } = renderMenu();
    await userEvent.click(button);
    await userEvent.click(item("Busy"));
    expect(chosen).toEqual([]);
  });

  it("closes with Escape and gives the focus back, and closes with its button", async () => {
    const user = userEvent.setup();
    const { button, chosen } = renderMenu();
    await user.click(button);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(button);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(chosen).toEqual([]);
  });

  it("closes on a press outside it and when the focus leaves with Tab, choosing nothing", async () => {
    const user = userEvent.setup();
    const { button, chosen } = renderMenu();
    await user.click(button);
    await user.click(document.body);
    expect(screen.queryByRole("menu")).toBeNull();
    await user.click(button);
    await user.keyboard("{Tab}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(chosen).toEqual([]);
  });
});

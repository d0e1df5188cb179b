import {
  type ButtonHTMLAttributes,
  createContext,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { cn } from "../../lib/cn";
import { Button, type ButtonProps } from "./button";

/**
 * A menu button as WAI-ARIA's authoring practices describe it, small enough for the first
 * download: the menu opens under its button (right-aligned), the arrow keys, Home and End move
 * between its items, Escape closes it and gives the focus back to the button, and a press outside
 * or the focus leaving closes it. No positioning library: the top bar's menu has one place to go.
 */
interface MenuState {
  open: boolean;
  /** Which item takes the focus as the menu opens. */
  focusOnOpen: "first" | "last";
  openMenu: (focus: "first" | "last") => void;
  close: (returnFocus: boolean) => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
  buttonId: string;
  menuId: string;
}

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = useContext(MenuContext);
  if (!menu) throw new Error("A menu's parts must be inside <Menu>");
  return menu;
}

export function Menu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [focusOnOpen, setFocusOnOpen] = useState<"first" | "last">("first");
  const buttonRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const openMenu = useCallback((focus: "first" | "last") => {
    setFocusOnOpen(focus);
    setOpen(true);
  }, []);
  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);
  const state: MenuState = {
    open,
    focusOnOpen,
    openMenu,
    close,
    buttonRef,
    buttonId: `${id}-button`,
    menuId: `${id}-menu`,
  };
  return (
    <MenuContext.Provider value={state}>
      <div className="relative">{children}</div>
    </MenuContext.Provider>
  );
}

export function MenuButton({ onKeyDown, ...props }: ButtonProps) {
  const menu = useMenu();
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    onKeyDown?.(event);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      menu.openMenu(event.key === "ArrowDown" ? "first" : "last");
    }
  };
  return (
    <Button
      ref={menu.buttonRef}
      id={menu.buttonId}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      aria-controls={menu.open ? menu.menuId : undefined}
      onClick={() => (menu.open ? menu.close(false) : menu.openMenu("first"))}
      onKeyDown={keyDown}
      {...props}
    />
  );
}

const enabledItems = (menu: HTMLElement) =>
  [...menu.querySelectorAll<HTMLElement>("[role=menuitem]")].filter(
    (item) => !item.hasAttribute("disabled"),
  );

export function MenuContent({ children }: { children: ReactNode }) {
  const menu = useMenu();
  const ref = useRef<HTMLDivElement>(null);
  const { open, focusOnOpen, close, buttonRef } = menu;

  useEffect(() => {
    if (!open || !ref.current) return;
    const items = enabledItems(ref.current);
    (focusOnOpen === "first" ? items[0] : items.at(-1))?.focus();
  }, [open, focusOnOpen]);

  useEffect(() => {
    if (!open) return;
    // A press anywhere but the menu and its button closes it (the button toggles it itself).
    const pressOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!ref.current?.contains(target) && !buttonRef.current?.contains(target)) close(false);
    };
    document.addEventListener("pointerdown", pressOutside);
    return () => document.removeEventListener("pointerdown", pressOutside);
  }, [open, close, buttonRef]);

  if (!open) return null;

  const keyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = enabledItems(event.currentTarget);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const moveTo = {
      ArrowDown: items[(at + 1) % items.length],
      ArrowUp: items[(at - 1 + items.length) % items.length],
      Home: items[0],
      End: items.at(-1),
    }[event.key];
    if (moveTo) {
      event.preventDefault();
      moveTo.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  };

  return (
    <div
      ref={ref}
      id={menu.menuId}
      role="menu"
      aria-labelledby={menu.buttonId}
      onKeyDown={keyDown}
      // The focus going elsewhere (a tap on the page, another window) closes the menu.
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (next && !event.currentTarget.contains(next) && next !== buttonRef.current) close(false);
      }}
      className="absolute top-full end-0 z-50 mt-1.5 min-w-56 rounded-lg border border-slate-200 bg-white p-1 text-slate-900 shadow-lg"
    >
      {children}
    </div>
  );
}

export function MenuItem({
  className,
  onSelect,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick"> & { onSelect: () => void }) {
  const { close } = useMenu();
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      onClick={() => {
        close(true);
        onSelect();
      }}
      className={cn(
        "flex w-full cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-start text-sm outline-none select-none hover:bg-brand-100 focus:bg-brand-100 disabled:cursor-default disabled:opacity-50",
        className,
      )}
      {...props}
    />
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <div className="px-3 py-2 text-sm font-medium text-slate-700">{children}</div>;
}

export function MenuSeparator() {
  return <hr className="my-1 h-px border-0 bg-slate-200" />;
}

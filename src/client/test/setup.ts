import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// findBy*/waitFor wait this long: lazy-loaded dialogs take over a second to load when CI shares its
// two cores with a full test run (seen on this machine); a real failure still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// A test that prints an unexpected console.error is a failing test.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  cleanup();
  // Each test starts on a device of its own (the open journal, offers already made).
  window.localStorage.clear();
  vi.restoreAllMocks();
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error: ${errors.map((a) => a.join(" ")).join("\n")}`);
  }
});

// jsdom has no pointer capture; Radix's toast asks for it when a button in a toast is tapped.
if (!("hasPointerCapture" in Element.prototype)) {
  Object.assign(Element.prototype, {
    hasPointerCapture: () => false,
    releasePointerCapture: () => undefined,
  });
}

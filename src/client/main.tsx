import { StrictMode, startTransition } from "react";
import { App } from "./app/app";
import { registerAppUpdate } from "./features/app-update/register-app-update";
import "./index.css";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
// React DOM (200 kB) is a chunk of its own, linked from index.html beside this one (vite.config.ts):
// it is evaluated in a task of its own after the app's modules, not in one long task with them.
void import("react-dom/client").then(({ createRoot }) => {
  // The root is made in the next task, not in the one that evaluated React DOM: creating it
  // registers React's listener for every event type on the page, which made that task, the page's
  // longest, longer still (ADR 0032).
  setTimeout(() => {
    const reactRoot = createRoot(root);
    // A transition: React renders the first screen in slices of a few milliseconds, yielding
    // between them, instead of in one long task that would hold up input (ADR 0032).
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
    registerAppUpdate(createRoot);
  }, 0);
});

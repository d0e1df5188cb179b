import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { registerAppUpdate } from "./features/app-update/register-app-update";
import "./index.css";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
const reactRoot = createRoot(root);
// A transition: React renders the first screen in slices of a few milliseconds, yielding between
// them, instead of in one long task that would hold up input (ADR 0032).
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
registerAppUpdate(createRoot);

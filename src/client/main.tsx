import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { registerAppUpdate } from "./features/app-update/register-app-update";
import { seedEmbeddedMemory } from "./features/memories/api/get-memory";
import "./index.css";
import { createQueryClient } from "./lib/query-client";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
const queryClient = createQueryClient();
seedEmbeddedMemory(queryClient);
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
registerAppUpdate(createRoot);
